import Effects
import EffectsTestSupport
import Testing

/// The clocks `Environment.continuousClock` answers, live and in a test.
enum ContinuousClockUnderTest: String, CaseIterable, CustomTestStringConvertible {
  /// `DurationClock.continuous`, the live value: `ContinuousClock()`.
  case live
  /// What a virtual-time scope's environment answers: its `TestScheduler`'s virtual clock.
  case virtual

  var testDescription: String { rawValue }

  /// Runs `body` with the clock, and a way to run what is due on it: nothing to do on the live
  /// clock, whose due sleeps end by themselves; `advance()` on the virtual one, inside its own
  /// virtual-time scope, where a sleep that is due ends when the test runs due work.
  func withClock(_ body: (DurationClock, _ runDue: () async -> Void) async throws -> Void) async throws {
    switch self {
    case .live:
      try await body(Environment.live.continuousClock) {}
    case .virtual:
      try await withVirtualTime { scheduler in
        try await body(Environment.current.continuousClock) { await scheduler.advance() }
      }
    }
  }
}

/// One suite, run against the live clock and the virtual one: what code that sleeps on
/// `environment.continuousClock` may rely on, whichever it gets. (No check waits for real time:
/// the live clock is only asked to sleep until deadlines it has reached. The one difference the
/// suite allows: a sleep whose deadline has come ends on the live clock by itself, and on the
/// virtual one when the test runs due work — its `advance`.)
@Suite("Environment.continuousClock contract")
struct ContinuousClockContractTests {
  @Test(arguments: ContinuousClockUnderTest.allCases)
  func nowNeverGoesBackwards(_ clock: ContinuousClockUnderTest) async throws {
    try await clock.withClock { clock, _ in
      var previous = clock.now
      var backwards = 0
      for _ in 0..<1_000 {
        let now = clock.now
        if now < previous { backwards += 1 }
        previous = now
      }
      #expect(backwards == 0)
    }
  }

  @Test(arguments: ContinuousClockUnderTest.allCases)
  func sleepingUntilAReachedDeadlineReturnsAndNowIsPastIt(_ clock: ContinuousClockUnderTest) async throws {
    try await clock.withClock { clock, runDue in
      let deadline = clock.now
      let reached = Task { try await clock.sleep(until: deadline, tolerance: nil) }
      await runDue()
      try await reached.value
      #expect(clock.now >= deadline)
      let passed = Task { try await clock.sleep(until: deadline.advanced(by: .seconds(-5)), tolerance: nil) }
      await runDue()
      try await passed.value
      #expect(clock.now >= deadline)
    }
  }

  @Test(arguments: ContinuousClockUnderTest.allCases)
  func sleepingForZeroThroughEveryStandardSpellingReturns(_ clock: ContinuousClockUnderTest) async throws {
    try await clock.withClock { clock, runDue in
      let start = clock.now
      let sleeps = Task {
        try await clock.sleep(for: .zero)
        try await Task.sleep(for: .zero, clock: clock)
        try await Task.sleep(until: start, clock: clock)
      }
      for _ in 0..<3 { await runDue() }
      try await sleeps.value
      #expect(clock.now >= start)
    }
  }

  @Test(arguments: ContinuousClockUnderTest.allCases)
  func aCancelledTaskSleepingThrowsCancellationError(_ clock: ContinuousClockUnderTest) async throws {
    try await clock.withClock { clock, _ in
      let sleeper = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        try await clock.sleep(for: .seconds(3_600))
      }
      await #expect(throws: CancellationError.self) { try await sleeper.value }
    }
  }

  @Test(arguments: ContinuousClockUnderTest.allCases)
  func instantsMeasureExactDurations(_ clock: ContinuousClockUnderTest) async throws {
    try await clock.withClock { clock, _ in
      let now = clock.now
      let later = now.advanced(by: .milliseconds(1_234))
      #expect(now.duration(to: later) == .milliseconds(1_234))
      #expect(later.duration(to: now) == .milliseconds(-1_234))
      #expect(now < later)
      #expect(clock.minimumResolution >= .zero)
    }
  }
}
