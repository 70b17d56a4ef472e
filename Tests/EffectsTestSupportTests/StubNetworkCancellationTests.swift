import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request whose task is cancelled during its stub's latency is neither recorded nor answered,
/// as `StubNetwork.send` says. Before, it stayed in `requests`.
@Suite(.timeLimit(.minutes(1)))
struct StubNetworkCancellationTests {
  private static let slow = "https://api.example.com/slow"
  private static let fast = "https://api.example.com/fast"

  @Test func aRequestCancelledDuringItsLatencyIsTakenBackOutOfTheRecord() async throws {
    let scheduler = TestScheduler()
    let issues = try await withCapturedIssues {
      try await scheduler.withVirtualTime { () async throws in
        let network = StubNetwork(scheduler: scheduler)
        network.stub(.get(Self.slow), .ok("slow"), after: .seconds(2))
        network.stub(.get(Self.fast), .ok("fast"))
        let cancelled = Task { try await network.send(.get(Self.slow)) }
        await scheduler.advance(by: .seconds(1))
        #expect(network.requests == [.get(Self.slow)], "in flight, it is recorded")
        #expect(try await network.send(.get(Self.fast)).text == "fast")
        let answered = Task { try await network.send(.get(Self.slow)) }
        await scheduler.runDue()
        #expect(network.requests == [.get(Self.slow), .get(Self.fast), .get(Self.slow)])
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(
          network.requests == [.get(Self.fast), .get(Self.slow)],
          "the cancelled one, not the later one, is gone"
        )
        await scheduler.advance(by: .seconds(2))
        #expect(try await answered.value.text == "slow")
        network.assertRequests([.get(Self.fast), .get(Self.slow)])
        // Cleared while in flight, then cancelled: the record stays as clear() left it.
        let clearedFirst = Task { try await network.send(.get(Self.slow)) }
        await scheduler.runDue()
        network.clear()
        #expect(try await network.send(.get(Self.fast)).text == "fast")
        clearedFirst.cancel()
        await #expect(throws: CancellationError.self) { try await clearedFirst.value }
        #expect(network.requests == [.get(Self.fast)])
        #expect(scheduler.pending == [])
      }
    }.issues
    #expect(issues == [], "the stub the cancelled request matched counts as used: nothing to report at the end")
  }
}
