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
/// queued, and releases it from outside the scope once the watchdog has decided: by the watchdog's
/// own count of spared jobs, or by the queued task running on a new thread — never after a guessed
/// sleep. A watchdog that never decides releases the job after 30 s of real time, and fails.
@Suite struct LaneWatchdogTests {
  private static let file = "EffectsTestSupportTests/LaneWatchdogTests.swift"

  @available(EffectsVirtualTime, *)
  @Test func aJobBlockedWhileADebuggerIsAttachedIsNeitherGivenUpOnNorReported() async {
    let scheduler = TestScheduler()
    let ran = Recorder<String>()
    let release = Release(watching: ran)
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        guard let executor = VirtualExecutor.scope else {
          Issue.record("no scope")
          return
        }
        await LaneWatchdog.withTraced(true, for: executor) {
          let blocked = Task { release.semaphore.wait() }
          let other = Task { ran.append("other") }
          // Due to be given up on, and spared: the queued task has not run, the lane is the same.
          release.when { LaneWatchdog.sparedJobs(of: executor) > 0 }
          await scheduler.runDue()
          await other.value
          await blocked.value
        }
      }
    }.issues
    #expect(issues == [])
    #expect(release.seen == .some([]))
    #expect(ran.values == ["other"])
  }

  @available(EffectsVirtualTime, *)
  @Test func theSameJobWithNoDebuggerIsGivenUpOnAndReported() async {
    let scheduler = TestScheduler()
    let ran = Recorder<String>()
    let release = Release(watching: ran)
    let runLine = #line + 7
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        let blocked = Task { release.semaphore.wait() }
        let other = Task { ran.append("other") }
        // Given up on: the queued task runs on a new thread while the job is still blocked.
        release.when { ran.values == ["other"] }
        await scheduler.runDue()
        await other.value
        await blocked.value
      }
    }.issues
    #expect(release.seen == .some(["other"]))
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

/// A semaphore that blocks a job of the scope, signalled from a thread outside the scope once a
/// condition holds (or after 30 s of real time), with what the scope's tasks had run by then.
private final class Release: Sendable {
  let semaphore = DispatchSemaphore(value: 0)
  private let ran: Recorder<String>
  private let state = Locked<[String]?>(nil)

  init(watching ran: Recorder<String>) {
    self.ran = ran
  }

  /// What had run when the condition held; nil if it never did.
  var seen: [String]? { state.snapshot }

  func when(_ condition: @escaping @Sendable () -> Bool) {
    Thread.detachNewThread { [self] in
      let deadline = Date(timeIntervalSinceNow: 30)
      while !condition() {
        guard Date() < deadline else {
          semaphore.signal()
          return
        }
        usleep(10_000)
      }
      state.withLock { $0 = ran.values }
      semaphore.signal()
    }
  }
}
