import Dispatch
import Effects
import EffectsTestHelpers
import Foundation
import Testing

@testable import EffectsTestSupport

/// A task run on a scope's serial lane that calls a function isolated to its caller's actor (nil
/// there: `withTaskGroup`, `withTaskCancellationHandler`, a continuation's `isolation:`) hops to
/// the global executor: the runtime sees the lane's task executor differ from the task's (none),
/// and queues the task again. The lane takes that hop as the task's next job and runs it at once, as a real
/// executor would go on on the same thread, rather than behind the jobs queued meanwhile.
@Suite(.timeLimit(.minutes(1))) struct LaneHopTests {
  @available(EffectsVirtualTime, *)
  @Test func aTaskThatHopsGoesOnBeforeTheTasksStartedAfterIt() async {
    let order = Locked<[String]>([])
    await withVirtualTime { scheduler in
      // Detached: no task executor preference to inherit from the test (a `Task {}` started by
      // code on the main actor has none either).
      let first = Task.detached {
        await hop()
        await hop()
        order.withLock { $0.append("first") }
      }
      let second = Task.detached { order.withLock { $0.append("second") } }
      await scheduler.advance()
      await first.value
      await second.value
    }
    #expect(order.snapshot == ["first", "second"])
  }

  /// Each hop is still a job of the scope: an advance waits for a task that hops many times, and
  /// counts its hops among the jobs the scope has run.
  @available(EffectsVirtualTime, *)
  @Test func anAdvanceWaitsForATaskThatHopsManyTimes() async {
    let hops = Locked(0)
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        let before = VirtualExecutor.scope?.jobsQueued ?? 0
        let task = Task {
          for _ in 0..<1_000 {
            await hop()
            hops.withLock { $0 += 1 }
          }
        }
        await scheduler.advance()
        #expect(hops.snapshot == 1_000)
        #expect((VirtualExecutor.scope?.jobsQueued ?? 0) - before >= 1_000)
        await task.value
      }
    }.issues
    #expect(issues == [])
  }

  /// A task whose job blocked the lane, and was given up on, goes on when it hops afterwards: the
  /// lane that took over runs its hop as a job of its own.
  @available(EffectsVirtualTime, *)
  @Test func aTaskGivenUpOnWhileBlockedGoesOnWhenItHops() async {
    let semaphore = DispatchSemaphore(value: 0)
    let order = Recorder<String>()
    _ = await withCapturedIssues {
      await withVirtualTime { scheduler in
        let blocked = Task {
          semaphore.wait()
          await hop()
          await hop()
          order.append("blocked went on")
        }
        // Runs on the thread that takes the lane over, once the watchdog gives up on the job.
        let other = Task {
          order.append("other")
          semaphore.signal()
        }
        await scheduler.advance()
        await other.value
        await blocked.value
      }
    }
    #expect(order.values == ["other", "blocked went on"])
  }
}

/// A function that runs on its caller's actor, as `withTaskGroup` and
/// `withTaskCancellationHandler` do: called from a nonisolated task on the lane, it hops to the
/// global executor on entry (its isolation is nil), and the caller hops back on return.
private func hop(isolation: isolated (any Actor)? = #isolation) async {}
