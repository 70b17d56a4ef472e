import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What `StubNetwork.send` says of a cancelled request, and what the `Network` contract suite
/// proves the live client does: cancelled during its latency, a request was sent (a server has
/// it), so it stays recorded, unanswered, its stub used; cancelled before it sends, it never was.
@Suite(.timeLimit(.minutes(1)))
struct StubNetworkCancellationTests {
  private static let slow = "https://api.example.com/slow"
  private static let fast = "https://api.example.com/fast"

  @Test func aRequestCancelledDuringItsLatencyStaysRecordedUnansweredAndItsStubUsed() async throws {
    let scheduler = TestScheduler()
    let answered = Recorder<String>()
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        let network = StubNetwork(scheduler: scheduler)
        network.stub(.get(Self.slow), .ok("slow"), after: .seconds(2))
        network.stub(.get(Self.fast), .ok("fast"))
        let cancelled = Task {
          let response = try await network.send(.get(Self.slow))
          answered.append(response.text ?? "")
        }
        await scheduler.advance(by: .seconds(1))
        _ = try? await network.send(.get(Self.fast))
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        await scheduler.advance(by: .seconds(5))
        #expect(answered.values == [], "never answered")
        #expect(network.requests == [.get(Self.slow), .get(Self.fast)], "recorded in the order they were sent")
        #expect(scheduler.pending == [], "its latency is no longer pending")
      }
    }.issues
    #expect(issues == [], "the stub it matched counts as used: nothing is reported at the scope's end")
  }

  @Test func aRequestFromATaskCancelledBeforeItSendsIsNotRecorded() async {
    let scheduler = TestScheduler()
    await scheduler.withVirtualTime {
      let network = StubNetwork(scheduler: scheduler)
      let cancelled = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return try await network.send(.get(Self.slow))
      }
      await #expect(throws: CancellationError.self) { try await cancelled.value }
      #expect(network.requests == [])
    }
  }
}
