import Dispatch
import Effects
import EffectsTestHelpers
import Foundation
import Testing

@testable import EffectsTestSupport

/// A debugger is not a failure: a job of the scope blocked past the watchdog's limit while a
/// debugger is attached is neither given up on nor reported, and the same job without one is.
/// "Attached" is forced for the scope under test only (``LaneWatchdog/withTraced(_:for:isolation:_:)``),
/// so tests running at the same time see the real answer.
///
/// Each test blocks the scope's thread on a semaphore behind which another task of the scope is
/// queued. The semaphore is signalled by what the watchdog decides, never after a guessed sleep:
/// by the watchdog itself when it spares the job, or by the queued task once it runs on the new
/// thread that takes the lane over. A watchdog that never decides fails by the time limit.
@Suite(.timeLimit(.minutes(1))) struct LaneWatchdogTests {
  private static let file = "EffectsTestSupportTests/LaneWatchdogTests.swift"

  @available(EffectsVirtualTime, *)
  @Test func aJobBlockedWhileADebuggerIsAttachedIsNeitherGivenUpOnNorReported() async {
    let scheduler = TestScheduler()
    let ran = Recorder<String>()
    let semaphore = DispatchSemaphore(value: 0)
    // What the scope's other task had run when the watchdog spared the blocked job.
    let seenWhenSpared = Locked<[String]?>(nil)
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        guard let executor = VirtualExecutor.scope else {
          Issue.record("no scope")
          return
        }
        let spared: @Sendable () -> Void = {
          seenWhenSpared.withLock { $0 = $0 ?? ran.values }
          semaphore.signal()
        }
        await LaneWatchdog.withTraced(true, for: executor, whenSpared: spared) {
          let blocked = Task { semaphore.wait() }
          let other = Task { ran.append("other") }
          await scheduler.advance()
          await other.value
          await blocked.value
        }
      }
    }.issues
    #expect(issues == [])
    // Spared, not given up on: the queued task had not run, so the lane was not taken over.
    #expect(seenWhenSpared.snapshot == .some([]))
    #expect(ran.values == ["other"])
  }

  @available(EffectsVirtualTime, *)
  @Test func theSameJobWithNoDebuggerIsGivenUpOnAndReported() async {
    let scheduler = TestScheduler()
    let ran = Recorder<String>()
    let semaphore = DispatchSemaphore(value: 0)
    let runLine = #line + 9
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        let blocked = Task { semaphore.wait() }
        // Given up on: the queued task runs on a new thread while the job is still blocked.
        let other = Task {
          ran.append("other")
          semaphore.signal()
        }
        await scheduler.advance()
        await other.value
        await blocked.value
      }
    }.issues
    #expect(ran.values == ["other"])
    let blockedLane = CapturedIssue.inexactVirtualTime(
      """
      a task of the scope blocked the scope's thread for more than .seconds(1) (a semaphore, a lock held across an \
      await, DispatchQueue.sync onto work of the scope, or a real Thread.sleep); the scope's other tasks went on on \
      a new thread meanwhile, so they no longer run one at a time. Await instead of blocking: an AsyncStream, a \
      continuation, or the scheduler's sleep
      """,
      fileID: Self.file,
      line: runLine
    )
    // Under the thread sanitizer the lane is given up on but nothing is reported.
    #expect(issues == (LaneWatchdog.isSanitized ? [] : [blockedLane]))
  }
}
