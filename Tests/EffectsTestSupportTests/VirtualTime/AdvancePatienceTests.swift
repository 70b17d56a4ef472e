import Dispatch
import Effects
import EffectsTestHelpers
@testable import EffectsTestSupport
import Testing

/// An `await advance` never hangs silently: it gives up on tasks that never all suspend, goes on
/// past a job that blocks the scope's thread once the watchdog has taken the lane over, and
/// returns when its task is cancelled — each time saying so at its line.
@Suite(.timeLimit(.minutes(2))) struct AdvancePatienceTests {
  @available(EffectsVirtualTime, *)
  private static var busyLooks: Int { VirtualExecutor.Patience.advance.busyLooks }
  @available(EffectsVirtualTime, *)
  private static var busyJobs: UInt64 { VirtualExecutor.Patience.advance.busyJobs }

  @available(EffectsVirtualTime, *)
  private static func stoppedWaiting(_ operation: String, line: Int) -> CapturedIssue {
    CapturedIssue(
      """
      \(operation) stopped waiting for the tasks of the scope: they kept running, \(busyJobs) jobs or more in each of \
      \(busyLooks) spans of .milliseconds(250), without ever all suspending — a loop of Task.yield() polling \
      for something, such as work this call would run? It goes on without waiting for them, so what the test sees \
      after this line may depend on timing. Let the loop await what it polls for (sleep on the scheduler, or await a \
      stream or a continuation) instead of yielding.
      """,
      line: line
    )
  }

  @available(EffectsVirtualTime, *)
  @Test func aTaskYieldingUntilWorkTheAdvanceWouldRunIsReportedAndTheAdvanceGoesOn() async {
    let scheduler = TestScheduler()
    let done = Locked(false)
    let advanceLine = #line + 5
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        scheduler.schedule(after: .seconds(1)) { done.withLock { $0 = true } }
        let poller = Task { while !done.withLock({ $0 }) { await Task.yield() } }
        await scheduler.advance(by: .seconds(1))
        await poller.value
      }
    }.issues
    #expect(done.withLock { $0 })
    #expect(issues == [Self.stoppedWaiting("await TestScheduler.advance(by:)", line: advanceLine)])
  }

  @available(EffectsVirtualTime, *)
  @MainActor
  @Test func onTheMainActorTooAYieldingTaskIsReportedAndTheAdvanceGoesOn() async {
    let scheduler = TestScheduler()
    var done = false
    let advanceLine = #line + 5
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        scheduler.schedule(after: .seconds(1)) { @MainActor in done = true }
        let poller = Task { @MainActor in while !done { await Task.yield() } }
        await scheduler.run()
        await poller.value
      }
    }.issues
    #expect(done)
    #expect(issues == [Self.stoppedWaiting("await TestScheduler.run()", line: advanceLine)])
  }

  @available(EffectsVirtualTime, *)
  @Test func aJobBlockedOnWorkTheAdvanceWouldRunStopsCountingOnceItsLaneIsTakenOver() async {
    let scheduler = TestScheduler()
    let semaphore = DispatchSemaphore(value: 0)
    let advanceLine = #line + 5
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        scheduler.schedule(after: .seconds(1)) { semaphore.signal() }
        let blocked = Task { semaphore.wait() }  // blocks the scope's thread until the advance runs the signal
        await scheduler.advance(by: .seconds(1))
        await blocked.value
      }
    }.issues
    // Under the thread sanitizer the lane is taken over without a report (a wait proves nothing there).
    #expect(
      issues
        == (LaneWatchdog.isSanitized
          ? []
          : [
            .inexactVirtualTime(
              """
              a task of the scope blocked the scope's thread for more than .seconds(1) (a semaphore, a lock held \
              across an await, DispatchQueue.sync onto work of the scope, or a real Thread.sleep); the scope's other \
              tasks went on on a new thread meanwhile, so they no longer run one at a time. Await instead of \
              blocking: an AsyncStream, a continuation, or the scheduler's sleep
              """,
              line: advanceLine
            )
          ])
    )
  }

  @Test func anAdvanceWhoseTaskIsCancelledReturnsAndSaysSo() async {
    let scheduler = TestScheduler()
    let stop = Locked(false)
    let advanceLine = #line + 4
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        let poller = Task { while !stop.withLock({ $0 }) { await Task.yield() } }
        let advancing = Task { await scheduler.advance(by: .seconds(1)) }
        advancing.cancel()
        await advancing.value
        stop.withLock { $0 = true }
        await poller.value
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          await TestScheduler.advance(by:) was cancelled while it waited for the tasks of the scope (the test's time \
          limit?), and returns without waiting for them. Tasks that never all suspend keep a scope busy: a loop of \
          Task.yield() polling for something, or a job that does not return.
          """,
          line: advanceLine
        )
      ]
    )
  }
}
