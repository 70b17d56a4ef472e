import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Environment.preview()`: the world of a SwiftUI preview, realistic and never live, that never
/// fails a test by being read.
@Suite struct PreviewEnvironmentTests {
  private static let me = "https://api.example.com/me"

  @Test func itsNetworkAnswersFromTheTapeAtOnceAndFailsAnythingElseAsOffline() async throws {
    let tape = NetworkTape([
      .init(request: .get(Self.me), response: .json(#"{"name":"Ada"}"#), latency: .seconds(3)),
      .init(request: .get(Self.me), response: .json(#"{"name":"Ada Lovelace"}"#)),
    ])
    let network = Environment.preview(network: tape).network
    #expect(try await network.send(.get(Self.me)).text == #"{"name":"Ada"}"#)
    #expect(try await network.send(.get(Self.me)).text == #"{"name":"Ada Lovelace"}"#)
    // The last answer keeps answering, as a stub's does.
    #expect(try await network.send(.get(Self.me)).text == #"{"name":"Ada Lovelace"}"#)
    await #expect(throws: URLError(.notConnectedToInternet)) {
      try await network.send(.get("https://api.example.com/other"))
    }
    await #expect(throws: URLError(.notConnectedToInternet)) {
      try await Environment.preview().network.send(.get(Self.me))
    }
  }

  @Test func aCancelledRequestIsNotAnswered() async {
    let network = Environment.preview(network: NetworkTape([.init(request: .get(Self.me), response: .ok())])).network
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await network.send(.get(Self.me))
    }
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test func timeStandsStillAndWorkRunsAtOnce() async throws {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let environment = Environment.preview(now: now)
    #expect(environment.clock.now == now)
    let ran = Locked(false)
    environment.scheduler.schedule(after: .seconds(60)) { ran.withLock { $0 = true } }
    #expect(ran.withLock { $0 })
    try await environment.continuousClock.sleep(for: .seconds(3600))
    #expect(Environment.preview().clock.now == Date(timeIntervalSinceReferenceDate: 0))
  }

  @Test func filesAndDefaultsAreInMemoryAndIdentifiersAndRandomNumbersTheSameEveryTime() throws {
    let environment = Environment.preview()
    try environment.fileWriter.writeFile(path: "/notes/a.txt", contents: Data("hi".utf8))
    #expect(try environment.fileReader.contents(atPath: "/notes/a.txt") == Data("hi".utf8))
    #expect(!FileManager.default.fileExists(atPath: "/notes/a.txt"))
    #expect(environment.uuid() == UUID(0))
    #expect(environment.uuid() == UUID(1))
    #expect(Environment.preview().random.next() == RandomSource(seed: 0).next())
    // A fresh preview starts empty.
    #expect(throws: (any Error).self) { try Environment.preview().fileReader.contents(atPath: "/notes/a.txt") }
  }

  @Test func readingAnythingFailsNoTest() {
    let issues = withCapturedIssues {
      let environment = Environment.preview()
      _ = environment.clock
      _ = environment.bundle
      _ = environment.fileReader
      _ = environment.fileWriter
      _ = environment.defaults
      _ = environment.scheduler
      _ = environment.console
      _ = environment.events
      _ = environment.network
      _ = environment.calendar
      _ = environment.locale
      _ = environment.timeZone
      _ = environment.continuousClock
      _ = environment.uuid
      _ = environment.random
      // A key with a testValue answers it; one without answers its liveValue.
      #expect(environment[APIClientKey.self] is MockAPIClient)
      #expect(environment[AnalyticsEndpointKey.self] == "https://analytics.example.com")
    }.issues
    #expect(issues == [])
  }
}
