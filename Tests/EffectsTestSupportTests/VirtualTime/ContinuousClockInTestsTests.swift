import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

/// `Environment.continuousClock` in tests: the virtual clock of the environment's `TestScheduler`
/// with no wiring, exact to the tick; a placeholder that never waits in `Environment.unimplemented()`;
/// and the live clock, reported when it waits for real inside virtual time.
@Suite struct ContinuousClockInTestsTests {
  @Test func theTestEnvironmentsClockMovesWithItsScheduler() throws {
    let environment = Environment.test()
    let scheduler = try #require(environment.scheduler as? TestScheduler)
    let clock = environment.continuousClock
    let start = clock.now
    scheduler.advanceSynchronously(by: .milliseconds(1_234))
    #expect(start.duration(to: clock.now) == .milliseconds(1_234))
  }

  /// Its instants are the scheduler's offsets, however late the environment is made: a deadline
  /// read from one is a deadline of the other.
  @Test func anEnvironmentMadeAfterAnAdvanceSpeaksItsSchedulersInstants() async {
    let scheduler = TestScheduler()
    await scheduler.advance(by: .seconds(5))
    let clock = Environment.test(scheduler: scheduler).continuousClock
    #expect(clock.now == TestScheduler.VirtualClock(scheduler).now)
    #expect(clock.now == DurationClock.Instant(offset: .seconds(5)))
    await scheduler.withVirtualTime {
      let sleeper = Task { try await clock.sleep(until: .init(offset: .seconds(6)), tolerance: nil) }
      await scheduler.advance(by: .milliseconds(999))
      #expect(scheduler.pending.count == 1)
      await scheduler.advance(by: .milliseconds(1))
      #expect(scheduler.pending.isEmpty)
      _ = await sleeper.result
    }
  }

  @Test func aSleepOnTheTestEnvironmentsClockEndsExactlyAtItsDeadline() async {
    var deviations: [String] = []
    for replay in 0..<300 {
      let scheduler = TestScheduler()
      let environment = Environment.test(scheduler: scheduler)
      await scheduler.withVirtualTime {
        let woke = Locked(false)
        let sleeper = Task {
          try await environment.continuousClock.sleep(for: .milliseconds(300))
          woke.withLock { $0 = true }
        }
        await scheduler.advance(by: .milliseconds(299))
        if woke.snapshot { deviations.append("\(replay): awake at 299 ms") }
        await scheduler.advance(by: .milliseconds(1))
        if !woke.snapshot { deviations.append("\(replay): asleep at 300 ms") }
        _ = await sleeper.result
      }
    }
    #expect(deviations == [])
  }

  @Test func aPendingSleepIsListedWhereTheTestMadeTheEnvironment() async {
    let scheduler = TestScheduler()
    let environment = Environment.test(scheduler: scheduler)
    let made = #line - 1
    await scheduler.withVirtualTime {
      let sleeper = Task { try await environment.continuousClock.sleep(for: .seconds(5)) }
      await scheduler.advance()
      #expect(scheduler.pending.map(\.offset) == [.seconds(5)])
      #expect(scheduler.pending.map(\.callSite.line) == [UInt(made)])
      sleeper.cancel()
      _ = await sleeper.result
    }
  }

  @MainActor @Test(.virtualTime) func inAVirtualTimeScopeTheCurrentClockIsTheScopesTime() async {
    let scheduler = TestScheduler.current
    var woke = false
    let sleeper = Task {
      try await Task.sleep(for: .seconds(2), clock: Environment.current.continuousClock)
      woke = true
    }
    await scheduler.advance(by: .milliseconds(1_999))
    #expect(!woke)
    await scheduler.advance(by: .milliseconds(1))
    #expect(woke)
    _ = await sleeper.result
  }

  @Test(.environment(.test()), .virtualTime) func anEnvironmentTraitsClockFollowsTheScope() async {
    let scheduler = TestScheduler.current
    let clock = Environment.current.continuousClock
    let start = clock.now
    await scheduler.advance(by: .seconds(3))
    #expect(start.duration(to: clock.now) == .seconds(3))
  }

  @Test func theUnimplementedPlaceholderReportsTheReadOnceThenNeverWaits() async throws {
    let environment = Environment.unimplemented()
    let made = #line - 1
    let line = #line + 2
    let issues = await withCapturedIssues {
      let clock = environment.continuousClock
      let start = clock.now
      for _ in 0..<3 {
        try? await clock.sleep(for: .seconds(60))
      }
      #expect(start.duration(to: clock.now) == .seconds(180))
    }.issues
    expectReadIssues(
      issues,
      [
        CapturedIssue(
          """
          Environment.continuousClock was read, but the environment made by \
          Environment.unimplemented() at EffectsTestSupportTests/ContinuousClockInTestsTests.swift:\(made) does \
          not provide it. Set environment.continuousClock in the test to the value the code under test should see.
          """,
          line: line
        )
      ]
    )
  }

  @Test func theLiveClockWaitingForRealInsideVirtualTimeIsReported() async {
    let scheduler = TestScheduler()
    let advanceLine = #line + 5
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        // On purpose: the live clock, in a scope that cannot make it exact.
        let task = Task { try await Environment.live.continuousClock.sleep(for: .milliseconds(20)) }
        await scheduler.advance(by: .seconds(1))
        _ = await task.result
      }
    }.issues
    #expect(CapturedIssue.areARealWait(issues, line: advanceLine, sleptAt: advanceLine - 1), "\(issues)")
  }

  @Test func recordingLogsEverySleepAndEveryIdentifierAskedFor() async {
    let scheduler = TestScheduler()
    let log = CallLog()
    let environment = Environment.test(scheduler: scheduler).recording(into: log)
    await scheduler.withVirtualTime {
      let sleeper = Task {
        try await environment.continuousClock.sleep(for: .seconds(2))
        try await Task.sleep(for: .milliseconds(300), clock: environment.continuousClock)
      }
      await scheduler.advance(by: .seconds(2))
      await scheduler.advance(by: .milliseconds(300))
      _ = await sleeper.result
    }
    _ = environment.uuid()
    var random = environment.random
    _ = Int.random(in: 1...6, using: &random)
    log.assertCalls([
      .init("continuousClock.sleep", "for .seconds(2)"),
      .init("continuousClock.sleep", "for .milliseconds(300)"),
      .init("uuid"),
    ])
  }
}
