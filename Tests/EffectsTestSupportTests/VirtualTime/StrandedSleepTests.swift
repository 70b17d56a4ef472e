import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

/// A test that waits on virtual time itself — `await model.load()` where the load waits for a
/// stub's latency — would wait for ever: only the test moves time. The scope sees it (every task
/// waiting, no advance under way, the test asleep on its scheduler), says so where the wait was
/// asked for, and moves time to the end of the wait itself, so the test ends.
@Suite struct StrandedSleepTests {
  private static let me = "https://api.example.com/me"

  private static func message(until deadline: String) -> String {
    """
    The test itself waited on virtual time, until \(deadline) from the scope's start (a sleep, or a \
    network stub's latency, asked for at this line or on a clock made here), and nothing else in its scope was \
    going to move time: only the test advances a TestScheduler, and every task of the scope was waiting too. \
    Without help it would have waited for ever; the scope moved time to \(deadline) itself, so the test goes on. \
    Start what waits in a task of its own (let loading = Task { await model.load() }), move time (await \
    scheduler.advance(by:), or run()), then await the task.
    """
  }

  @Test func aRequestAwaitedByTheTestItselfIsReportedAtItsStubAndAnswered() async {
    let line = #line + 4
    let (answer, issues) = await withCapturedIssues {
      await withVirtualTime { scheduler in
        let network = StubNetwork()
        network.stub(.get(Self.me), .ok("hi"), after: .seconds(2))
        let response = try? await network.send(.get(Self.me))
        return (response?.text, scheduler.elapsed)
      }
    }
    #expect(answer.0 == "hi")
    #expect(answer.1 == .seconds(2))
    #expect(issues == [CapturedIssue(Self.message(until: ".seconds(2)"), line: line)])
  }

  @MainActor @Test func aMainActorTestSleepingOnItsClockIsReportedAndWhatWasDueBeforeRunsInOrder() async {
    let scheduler = TestScheduler()
    let ran = Locked<[String]>([])
    // The line that slept, found on the test's task: the clock was made for the scope, by the library.
    let line = #line + 5
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        scheduler.schedule(after: .seconds(1)) { ran.withLock { $0.append("callback at 1 s") } }
        let clock = Environment.current.continuousClock
        try? await clock.sleep(for: .seconds(3))
        ran.withLock { $0.append("the test at \(scheduler.elapsed)") }
      }
    }.issues
    #expect(ran.withLock { $0 } == ["callback at 1 s", "the test at 3.0 seconds"])
    #expect(issues == [CapturedIssue(Self.message(until: ".seconds(3)"), line: line)])
  }

  private static func untilTheEnd() -> String {
    """
    The test itself waited on virtual time until its end, .seconds(9223372036854775807) from the scope's \
    start (a sleep asked for at this line or on a clock made here), which no advance reaches, and nothing \
    else in its scope was going to move time. Without help it would have waited for ever; its sleep threw \
    CancellationError instead, and time stayed where it was. Sleep for a duration an advance can reach, or \
    start what sleeps until it is cancelled in a task of its own, and cancel it.
    """
  }

  /// A sleep until the end of virtual time is due never: the test's own is ended with
  /// `CancellationError`, and time does not move to the end.
  @Test func aTestSleepingUntilTheEndOfVirtualTimeIsCancelledAndTimeStays() async {
    let line = #line + 6
    let (outcome, issues) = await withCapturedIssues {
      await withVirtualTime { scheduler in
        await scheduler.advance(by: .seconds(1))
        let slept: (any Error)?
        do {
          try await scheduler.sleep(for: .seconds(Int64.max))
          slept = nil
        } catch { slept = error }
        return (slept, scheduler.elapsed)
      }
    }
    #expect(outcome.0 is CancellationError)
    #expect(outcome.1 == .seconds(1))
    #expect(issues == [CapturedIssue(Self.untilTheEnd(), line: line)])
  }

  @MainActor @Test func aMainActorTestSleepingOnItsClockAfterTheEndIsCancelled() async {
    let line = #line + 8
    let (outcome, issues) = await withCapturedIssues {
      await withVirtualTime { scheduler in
        await scheduler.advance(by: .seconds(Int64.max))
        let clock = Environment.current.continuousClock
        // Due at the end (a second past it is past what virtual time holds): due never.
        let slept: (any Error)?
        do {
          try await clock.sleep(for: .seconds(1))
          slept = nil
        } catch { slept = error }
        return (slept, scheduler.elapsed)
      }
    }
    #expect(outcome.0 is CancellationError)
    #expect(outcome.1 == .seconds(Int64.max))
    #expect(issues == [CapturedIssue(Self.untilTheEnd(), line: line)])
  }

  /// A loop that sleeps at one line is one mistake: reported once a scope, and every turn still
  /// goes on.
  @Test func aTestSleepingInALoopIsReportedOnceForItsLine() async {
    let line = #line + 4
    let (elapsed, issues) = await withCapturedIssues {
      await withVirtualTime { scheduler in
        for _ in 0..<50 {
          try? await scheduler.sleep(for: .seconds(1))
        }
        return scheduler.elapsed
      }
    }
    #expect(elapsed == .seconds(50))
    #expect(issues == [CapturedIssue(Self.message(until: ".seconds(1)"), line: line)])
  }

  @Test func aTestThatSleepsWhileAnotherTaskAdvancesIsNotReported() async {
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        for _ in 0..<100 {
          let advancing = Task { await scheduler.advance(by: .seconds(1)) }
          try? await scheduler.sleep(for: .seconds(1))
          await advancing.value
        }
        #expect(scheduler.elapsed == .seconds(100))
      }
    }.issues
    #expect(issues == [])
  }

  @Test func aTestThatSleepsWhileItsTasksStillWorkIsReportedOnlyOnceTheyAllWait() async {
    let line = #line + 10
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        let worked = Locked(0)
        let working = Task {
          for _ in 0..<1_000 {
            await Task.yield()
            worked.withLock { $0 += 1 }
          }
        }
        try? await scheduler.sleep(for: .milliseconds(5))
        #expect(worked.withLock { $0 } == 1_000)
        await working.value
      }
    }.issues
    #expect(issues == [CapturedIssue(Self.message(until: ".milliseconds(5)"), line: line)])
  }
}
