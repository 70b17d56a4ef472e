import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

/// The talk's `compute(file:)`, reading the world only through the environment.
private func compute(file: String, environment: Environment) -> Int {
  let value =
    environment.bundle.path(forResource: file, ofType: nil)
    .flatMap { try? environment.fileReader.string(atPath: $0) }
    .flatMap { Int($0) } ?? 0
  return value * value
}

@Suite struct EnvironmentRecordingTests {
  @Test func computeReadsTheBundleThenTheFileAndNothingElse() {
    var environment = Environment.unimplemented()
    environment.bundle = FixtureBundle(["number.txt": "/fixtures/number.txt"])
    environment.fileReader = InMemoryFileSystem(["/fixtures/number.txt": "123"])
    let log = CallLog()

    let result = compute(file: "number.txt", environment: environment.recording(into: log))

    #expect(result == 15129)
    log.assertCalls([
      .init("bundle.path", "number.txt"),
      .init("fileReader.contents", "/fixtures/number.txt"),
    ])
  }

  @Test func aMissingResourceIsLoggedAndNoFileIsRead() {
    var environment = Environment.test()
    environment.bundle = FixtureBundle([:])
    let log = CallLog()

    #expect(compute(file: "number.txt", environment: environment.recording(into: log)) == 0)
    log.assertCalls([.init("bundle.path", "number.txt")])
  }

  @Test func bundleLookupsNameTheResource() {
    let log = CallLog()
    let bundle = Environment.test().recording(into: log).bundle
    _ = bundle.path(forResource: "number", ofType: "txt")
    _ = bundle.path(forResource: "number", ofType: ".txt")
    _ = bundle.path(forResource: nil, ofType: "json")
    _ = bundle.path(forResource: "README", ofType: nil)
    log.assertCalls([
      .init("bundle.path", "number.txt"),
      .init("bundle.path", "number.txt"),
      .init("bundle.path", "*.json"),
      .init("bundle.path", "README"),
    ])
  }

  @Test func defaultsReadsAreLoggedByKeyAndWritesPassThrough() throws {
    let defaults = InMemoryDefaults()
    var environment = Environment.test()
    environment.defaults = defaults
    let log = CallLog()
    let recorded = environment.recording(into: log)

    recorded.defaults.set(true, for: "onboarded")
    #expect(try recorded.defaults.value(for: DefaultsKey<Bool>("onboarded")) == true)
    #expect(recorded.defaults.value(for: "name") == nil)

    #expect(defaults.values == ["onboarded": .bool(true)])
    log.assertCalls([.init("defaults.value", "onboarded"), .init("defaults.value", "name")])
  }

  @Test func timeReadsAreLogged() {
    let now = Date(timeIntervalSince1970: 1_000)
    let log = CallLog()
    let recorded = Environment.test(now: now).recording(into: log)

    #expect(recorded.clock.now == now)
    log.assertCalls([.init("clock.now")])
  }

  @Test func scheduledWorkAndSleepsAreLoggedAndStillRun() async throws {
    let log = CallLog()
    let ran = Spy<String, Void>("work", log: log)
    // An inline scheduler runs the work and the sleep at once: this test is about what is logged.
    var environment = Environment.test()
    environment.scheduler = InlineScheduler()
    let scheduler = environment.recording(into: log).scheduler

    scheduler.schedule(after: .seconds(3)) { ran.record("once") }
    scheduler.schedule(after: .zero, every: .seconds(5)) { ran.record("repeating") }
    try await scheduler.sleep(for: .seconds(2))

    log.assertCalls([
      .init("scheduler.schedule", "after .seconds(3)"),
      .init("work", "once"),
      .init("scheduler.schedule", "after .seconds(0) every .seconds(5)"),
      .init("work", "repeating"),
      .init("scheduler.sleep", "for .seconds(2)"),
    ])
  }

  @Test func recordingAnUnimplementedEnvironmentReadsNoField() {
    let log = CallLog()
    _ = Environment.unimplemented().recording(into: log)
    #expect(log.entries.isEmpty)
  }

  @Test func anUnsetFieldOfARecordedUnimplementedEnvironmentStillReports() {
    let log = CallLog()
    let environment = Environment.unimplemented().recording(into: log)
    let made = #line - 1
    let line = #line + 2
    let issues = withCapturedIssues {
      _ = environment.clock.now
    }.issues
    expectReadIssues(
      issues,
      [
        CapturedIssue(
          """
          Environment.clock was read, but the environment made by \
          Environment.unimplemented() at EffectsTestSupportTests/EnvironmentRecordingTests.swift:\(made) does not \
          provide it. Set environment.clock in the test to the value the code under test should see.
          """,
          line: line
        )
      ]
    )
    log.assertCalls([.init("clock.now")])
  }

  @Test func aFieldSetAfterRecordingIsNotRecorded() {
    let log = CallLog()
    var environment = Environment.test().recording(into: log)
    environment.clock = FixedClock(Date(timeIntervalSince1970: 0))
    _ = environment.clock.now
    #expect(log.entries.isEmpty)
  }

  /// A recorded test environment moved into a virtual-time scope keeps logging, and its network
  /// answers on the scope's clock: the scope wraps its scheduler and clocks as `recording(into:)`
  /// wrapped the environment's own.
  @Test func aRecordedEnvironmentMovedIntoAScopeLogsAndAnswersOnTheScopesClock() async throws {
    let log = CallLog()
    var environment = Environment.test()
    let network = try #require(environment.network as? StubNetwork)
    network.stub(.get("https://api.example.com/me"), .ok("Ada"), after: .seconds(1))
    environment = environment.recording(into: log)
    let answered = Locked(false)
    await withEnvironment(environment) {
      await withVirtualTime { scheduler in
        Environment.current.scheduler.schedule(after: .seconds(3)) {}
        _ = Environment.current.clock.now
        let request = Task {
          defer { answered.withLock { $0 = true } }
          return try await Environment.current.network.send(.get("https://api.example.com/me"))
        }
        let sleeper = Task { try await Environment.current.continuousClock.sleep(for: .seconds(2)) }
        await scheduler.advance(by: .milliseconds(999))
        #expect(answered.withLock { $0 } == false)
        await scheduler.advance(by: .milliseconds(1))
        #expect(answered.withLock { $0 } == true)
        #expect((try? await request.value)?.text == "Ada")
        await scheduler.advance(by: .seconds(2))
        #expect(await sleeper.result.isSuccess)
      }
    }
    // The two tasks start in order, and each runs to its first suspension before the next: the
    // request's hop into `send`, a plain nonisolated function, goes on at once, as it would on a
    // real executor.
    log.assertCalls([
      .init("scheduler.schedule", "after .seconds(3)"),
      .init("clock.now"),
      .init("network.send", "GET https://api.example.com/me"),
      .init("continuousClock.sleep", "for .seconds(2)"),
    ])
  }

  /// Recording twice logs into both logs, whether the key was given or is resolved when read.
  @Test func recordingTwiceLogsIntoBothLogs() {
    let first = CallLog()
    let second = CallLog()
    var given = Environment.test()
    given.clock = FixedClock(Date(timeIntervalSince1970: 0))
    _ = given.recording(into: first).recording(into: second).clock.now
    let resolved = Environment.unimplemented()
    _ = withCapturedIssues {
      resolved.recording(into: first).recording(into: second).clock.now
    }
    first.assertCalls([.init("clock.now"), .init("clock.now")])
    second.assertCalls([.init("clock.now"), .init("clock.now")])
  }
}

extension Result {
  fileprivate var isSuccess: Bool {
    if case .success = self { true } else { false }
  }
}
