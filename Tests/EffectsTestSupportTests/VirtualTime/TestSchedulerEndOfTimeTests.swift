import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Testing

/// Virtual time ends at `.seconds(Int64.max)`: a deadline at or past it is due never, an advance
/// past it stops there, and no duration, however large, traps. Before, a deadline past
/// `Int64.max` seconds stopped the whole test process (SIGILL in the timer queue's key).
@Suite(.timeLimit(.minutes(1)))
struct TestSchedulerEndOfTimeTests {
  private static let file = "EffectsTestSupportTests/TestSchedulerEndOfTimeTests.swift"
  private static let end = Duration.seconds(Int64.max)

  /// How ``TestScheduler/PendingWork`` lists `what` due never, scheduled at `line` of this file.
  private static func dueNever(_ what: String, line: Int) -> String {
    "\(what) due never (at or past .seconds(9223372036854775807), where virtual time ends), scheduled at \(file):\(line)"
  }

  // MARK: - Synchronous forms

  @Test func workScheduledPastTheEndOfVirtualTimeNeverRunsAndIsListedAsDueNever() {
    let scheduler = TestScheduler()
    let ran = Recorder<String>()
    scheduler.advanceSynchronously(by: .seconds(1))
    scheduler.schedule(after: .seconds(Int64.max)) { ran.append("timeout") }
    let timeoutLine = #line - 1
    scheduler.schedule(after: .seconds(2)) { ran.append("at 3 s") }
    scheduler.runSynchronously()
    #expect(ran.values == ["at 3 s"])
    #expect(scheduler.elapsed == .seconds(3), "run() stops at the last work that is ever due")
    scheduler.advanceSynchronously(by: .seconds(Int64.max))
    scheduler.advanceSynchronously()
    scheduler.runSynchronously()
    #expect(ran.values == ["at 3 s"])
    #expect(scheduler.elapsed == Self.end)
    #expect(scheduler.pending.map(\.offset) == [Self.end])
    #expect(scheduler.pending.map(\.description) == [Self.dueNever("work", line: timeoutLine)])
    let assertLine = #line + 1
    let issues = withCapturedIssues { scheduler.assertNoPendingWork() }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          TestScheduler has 1 piece of work pending at .seconds(9223372036854775807), expected none:
            [0] \(Self.dueNever("work", line: timeoutLine))
          Run it with advance(by:) or run() before this line, or cancel it.
          """,
          line: assertLine
        )
      ]
    )
    #expect(scheduler.pending == [])
  }

  @Test func aDelayOfSecondsIntMaxIsNeverDueEvenFromTheStartAsUnderTheLiveScheduler() {
    let scheduler = TestScheduler()
    let ran = Recorder<Duration>()
    let work = scheduler.schedule(after: .seconds(Int.max)) { ran.append(scheduler.elapsed) }
    scheduler.runSynchronously()
    #expect(ran.values == [], "before, run() ran it at .seconds(9223372036854775807)")
    #expect(scheduler.elapsed == .zero)
    scheduler.advanceSynchronously(to: Self.end)
    #expect(ran.values == [], "not even when time reaches the end")
    work.cancel()
    #expect(scheduler.pending == [])
  }

  @Test func aRepeatingTimerWithAHugeIntervalTicksOnceUnderRunThenIsDueNever() {
    let scheduler = TestScheduler()
    let ticks = Recorder<Duration>()
    let timer = scheduler.schedule(after: .seconds(1), every: .seconds(Int64.max)) { ticks.append(scheduler.elapsed) }
    let timerLine = #line - 1
    let issues = withCapturedIssues { scheduler.runSynchronously() }.issues
    #expect(issues == [], "a tick that never comes is not runaway work")
    #expect(ticks.values == [.seconds(1)])
    #expect(scheduler.elapsed == .seconds(1))
    #expect(
      scheduler.pending.map(\.description) == [
        Self.dueNever("repeating work (every .seconds(9223372036854775807))", line: timerLine)
      ]
    )
    scheduler.advanceSynchronously(by: .seconds(Int64.max))
    #expect(ticks.values == [.seconds(1)])
    timer.cancel()
    #expect(scheduler.pending == [])
  }

  @Test func anAdvanceByAHugeDurationStopsAtTheEndOfVirtualTimeAfterRunningWhatIsDueBefore() {
    let scheduler = TestScheduler()
    let ran = Recorder<Duration>()
    scheduler.advanceSynchronously(by: .seconds(1))
    scheduler.schedule(after: .seconds(Int64.max / 2)) { ran.append(scheduler.elapsed) }
    scheduler.advanceSynchronously(by: .seconds(Int64.max))
    #expect(ran.values == [.seconds(1 + Int64.max / 2)], "work due before the end runs at its own deadline")
    #expect(scheduler.elapsed == Self.end)
    #expect(scheduler.now == scheduler.start.addingTimeInterval(Double(Int64.max)))
  }

  @Test func repeatedHugeAdvancesStayAtTheEndInsteadOfOverflowing() {
    let scheduler = TestScheduler()
    // 18 advances of .seconds(Int64.max) passed what Duration's 128 bits hold ("Overflow in +").
    for _ in 0..<40 {
      scheduler.advanceSynchronously(by: .seconds(Int64.max))
    }
    scheduler.advanceSynchronously(to: .seconds(Int64.max) * 3)
    #expect(scheduler.elapsed == Self.end)
    let ran = Recorder<Duration>()
    scheduler.schedule(after: .zero) { ran.append(scheduler.elapsed) }
    scheduler.runSynchronously()
    #expect(ran.values == [], "at the end of virtual time, even zero-delay work is due never")
    #expect(scheduler.pending.map(\.offset) == [Self.end])
  }

  @Test func durationsPastWhatDurationComponentsHoldNeverTrapIncludingInReports() {
    let scheduler = TestScheduler()
    let huge = Duration.seconds(Int64.max) * 4
    let ran = Recorder<Duration>()
    scheduler.schedule(after: huge) { ran.append(scheduler.elapsed) }
    let onceLine = #line - 1
    scheduler.schedule(after: .zero, every: huge) { ran.append(scheduler.elapsed) }
    let timerLine = #line - 1
    let backLine = #line + 1
    let issues = withCapturedIssues { scheduler.advanceSynchronously(by: .zero - huge) }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          TestScheduler.advanceSynchronously(by:) cannot move time backwards: got less than .seconds(-9223372036854775808). \
          Pass .zero or a positive duration.
          """,
          line: backLine
        )
      ]
    )
    scheduler.advanceSynchronously(by: huge)
    #expect(ran.values == [.zero])
    #expect(scheduler.elapsed == Self.end)
    #expect(
      scheduler.pending.map(\.description) == [
        Self.dueNever("work", line: onceLine),
        Self.dueNever("repeating work (every .seconds(9223372036854775807))", line: timerLine),
      ]
    )
  }

  @Test func maxRunsBelowOneIsReportedWhereTheSchedulerIsMadeAndTheDefaultIsKept() {
    let zeroLine = #line + 1
    let (zero, zeroIssues) = withCapturedIssues { TestScheduler(maxRuns: 0) }
    let negativeLine = #line + 1
    let (negative, negativeIssues) = withCapturedIssues { TestScheduler(maxRuns: -3) }
    #expect(zeroIssues == [Self.badMaxRuns("TestScheduler(maxRuns:) got 0", line: zeroLine)])
    #expect(negativeIssues == [Self.badMaxRuns("TestScheduler(maxRuns:) got -3", line: negativeLine)])
    #expect(zero.maxRuns == 100_000)
    #expect(negative.maxRuns == 100_000)
    let ran = Recorder<Duration>()
    for seconds in 1...3 {
      zero.schedule(after: .seconds(seconds)) { ran.append(zero.elapsed) }
    }
    let runIssues = withCapturedIssues { zero.runSynchronously() }.issues
    #expect(runIssues == [], "before, maxRuns 0 still ran one action, then reported the rest as runaway")
    #expect(ran.values == [.seconds(1), .seconds(2), .seconds(3)])
    #expect(withCapturedIssues { TestScheduler(maxRuns: 1) }.issues == [], "1 is the least that makes sense")
  }

  @Test func settingMaxRunsBelowOneIsReportedAtThatLineAndChangesNothing() {
    let scheduler = TestScheduler(maxRuns: 5)
    let line = #line + 1
    let issues = withCapturedIssues { scheduler.maxRuns = -1 }.issues
    #expect(issues == [Self.badMaxRuns("TestScheduler.maxRuns was set to -1", kept: 5, line: line)])
    #expect(scheduler.maxRuns == 5)
    #expect(withCapturedIssues { scheduler.maxRuns = 7 }.issues == [])
    #expect(scheduler.maxRuns == 7)
  }

  /// What a `maxRuns` below 1 is reported with, `what` naming where it was given.
  private static func badMaxRuns(_ what: String, kept: Int = 100_000, line: Int) -> CapturedIssue {
    CapturedIssue(
      """
      \(what), but maxRuns must be 1 or more: it is how many actions one advance or run may run before it \
      stops and reports the work still due as runaway. It stays \(kept). Pass 1 or more (Int.max for no limit).
      """,
      line: line
    )
  }

  // MARK: - Asynchronous forms, in a virtual-time scope

  @Test func aSleepPastTheEndOfVirtualTimeNeverWakesUntilItsTaskIsCancelled() async {
    let scheduler = TestScheduler()
    await scheduler.withVirtualTime {
      await scheduler.advance(by: .seconds(1))
      let woke = Recorder<Duration>()
      let sleeper = Task {
        try await scheduler.sleep(for: .seconds(Int64.max))
        woke.append(scheduler.elapsed)
      }
      let sleepLine = #line - 3
      await scheduler.advance(by: .seconds(Int64.max))
      await scheduler.advance()
      await scheduler.run()
      #expect(woke.values == [])
      #expect(scheduler.elapsed == Self.end)
      #expect(scheduler.pending.map(\.description) == [Self.dueNever("sleep", line: sleepLine)])
      sleeper.cancel()
      await #expect(throws: CancellationError.self) { try await sleeper.value }
      #expect(scheduler.pending == [])
    }
  }

  @Test func aClockSleepUntilAnInstantPastTheEndNeverWakes() async {
    let scheduler = TestScheduler()
    await scheduler.withVirtualTime {
      await scheduler.advance(by: .seconds(1))
      let clock = TestScheduler.VirtualClock(scheduler)
      let clockLine = #line - 1
      let woke = Recorder<Duration>()
      let sleeper = Task {
        try await clock.sleep(until: clock.now.advanced(by: .seconds(Int64.max)), tolerance: nil)
        woke.append(scheduler.elapsed)
      }
      await scheduler.advance(by: .seconds(Int64.max))
      #expect(woke.values == [])
      #expect(scheduler.pending.map(\.description) == [Self.dueNever("sleep", line: clockLine)])
      sleeper.cancel()
      await #expect(throws: CancellationError.self) { try await sleeper.value }
    }
  }

  @Test func awaitedRunTicksAHugeIntervalTimerOnceAndLeavesTimeoutsOfSecondsIntMaxPending() async {
    let scheduler = TestScheduler()
    await scheduler.withVirtualTime {
      let ticks = Recorder<Duration>()
      let timer = scheduler.schedule(after: .seconds(1), every: .seconds(Int64.max)) { ticks.append(scheduler.elapsed) }
      let timerLine = #line - 1
      let timeout = scheduler.schedule(after: .seconds(Int.max)) { ticks.append(scheduler.elapsed) }
      let timeoutLine = #line - 1
      let issues = await withCapturedIssues { await scheduler.run() }.issues
      #expect(issues == [])
      #expect(ticks.values == [.seconds(1)])
      #expect(scheduler.elapsed == .seconds(1))
      await scheduler.advance(by: .seconds(Int64.max))
      #expect(ticks.values == [.seconds(1)])
      #expect(
        scheduler.pending.map(\.description) == [
          Self.dueNever("work", line: timeoutLine),
          Self.dueNever("repeating work (every .seconds(9223372036854775807))", line: timerLine),
        ]
      )
      timer.cancel()
      timeout.cancel()
    }
  }

  @Test func awaitedHugeAdvancesStopAtTheEndAndWakeWhatIsDueBefore() async {
    let scheduler = TestScheduler()
    await scheduler.withVirtualTime {
      let woke = Recorder<Duration>()
      let sleeper = Task {
        try await scheduler.sleep(for: .seconds(Int64.max / 2))
        woke.append(scheduler.elapsed)
      }
      for _ in 0..<40 {
        await scheduler.advance(by: .seconds(Int64.max))
      }
      await scheduler.advance(to: .seconds(Int64.max) * 3)
      #expect(woke.values == [.seconds(Int64.max / 2)])
      #expect(scheduler.elapsed == Self.end)
      await #expect(throws: Never.self) { try await sleeper.value }
    }
  }

  @Test func aSleepLeftDueNeverIsReportedAtTheEndOfTheScopeLikeAnyLeftover() async {
    let scheduler = TestScheduler()
    let scopeLine = #line + 3
    let sleepLine = #line + 4
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        await scheduler.advance(by: .seconds(1))
        Task { try await scheduler.sleep(for: .seconds(Int64.max)) }
        await scheduler.advance(by: .seconds(1))
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          withVirtualTime at \(Self.file):\(scopeLine) ended with a task sleeping here still pending (due never \
          (at the end of virtual time); virtual time was .seconds(2)). It got CancellationError. No advance reaches \
          the end of virtual time: cancel the task before the scope ends; if the test means to leave it, open the \
          scope with leftoverWork: .expected.
          """,
          line: sleepLine
        )
      ]
    )
    #expect(scheduler.pending == [])
  }

  @Test func settingMaxRunsBelowOneInsideAScopeIsReportedAndAwaitedRunStillRunsEverything() async {
    let scheduler = TestScheduler()
    await scheduler.withVirtualTime {
      let line = #line + 1
      let issues = withCapturedIssues { scheduler.maxRuns = 0 }.issues
      #expect(issues == [Self.badMaxRuns("TestScheduler.maxRuns was set to 0", line: line)])
      let woke = Recorder<Duration>()
      for seconds in 1...3 {
        Task {
          try await scheduler.sleep(for: .seconds(seconds))
          woke.append(scheduler.elapsed)
        }
      }
      let runIssues = await withCapturedIssues { await scheduler.run() }.issues
      #expect(runIssues == [], "before, maxRuns 0 stopped after one sleeper and reported the rest as runaway")
      #expect(woke.values == [.seconds(1), .seconds(2), .seconds(3)])
    }
  }
}
