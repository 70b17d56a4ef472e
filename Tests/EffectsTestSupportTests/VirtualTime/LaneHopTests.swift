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

extension LaneHopTests {
  /// A task polling another's flag in a loop of hops lets that task run: its hops go on at once
  /// only for a while (`VirtualExecutor.hopsInARow`) while other jobs wait. Before, the poller
  /// held the lane for ever and the test hung, with no report (found by an attack on #40).
  @available(EffectsVirtualTime, *)
  @Test func aTaskPollingThroughHopsLetsTheTaskItWaitsForRun() async {
    let flag = Locked(false)
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        let poller = Task.detached {
          while !flag.snapshot { await hop() }
        }
        let setter = Task.detached { flag.withLock { $0 = true } }
        await scheduler.advance()
        await setter.value
        await poller.value
      }
    }.issues
    #expect(issues == [])
  }

  @available(EffectsVirtualTime, *)
  @MainActor
  @Test func onTheMainActorTooATaskPollingThroughHopsLetsTheTaskItWaitsForRun() async {
    let flag = Locked(false)
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        let poller = Task.detached {
          while !flag.snapshot { await withTaskGroup(of: Void.self) { _ in } }
        }
        let setter = Task.detached { flag.withLock { $0 = true } }
        await scheduler.advance()
        await setter.value
        await poller.value
      }
    }.issues
    #expect(issues == [])
  }

  /// A task that hops for ever is given up on by the advance waiting for it, as a loop of
  /// `Task.yield()` is (`AdvancePatienceTests`), and cancelled at the scope's end.
  @available(EffectsVirtualTime, *)
  @Test func aTaskThatHopsForEverIsGivenUpOnAndCancelled() async {
    let advanceLine = #line + 6
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        let spinner = Task.detached {
          while !Task.isCancelled { await hop() }
        }
        await scheduler.advance()
        spinner.cancel()
        await spinner.value
      }
    }.issues
    let busyJobs = VirtualExecutor.Patience.advance.busyJobs
    let looks = VirtualExecutor.Patience.advance.busyLooks
    #expect(
      issues == [
        CapturedIssue(
          """
          await TestScheduler.advance(by:) stopped waiting for the tasks of the scope: they kept running, \(busyJobs) jobs \
          or more in each of \(looks) spans of .milliseconds(250), without ever all suspending — a loop of \
          Task.yield() polling for something, such as work this call would run? It goes on without waiting for them, \
          so what the test sees after this line may depend on timing. Let the loop await what it polls for (sleep on \
          the scheduler, or await a stream or a continuation) instead of yielding.
          """,
          line: advanceLine
        )
      ]
    )
  }

  /// A task started after one that hops many times runs after at most `hopsInARow` of them.
  @available(EffectsVirtualTime, *)
  @Test func aTaskStartedAfterOneThatHopsRunsAfterAtMostATurnOfHops() async {
    let hops = Locked(0)
    let seen = Locked<Int?>(nil)
    await withVirtualTime { scheduler in
      let hopper = Task.detached {
        for _ in 0..<1_000 {
          await hop()
          hops.withLock { $0 += 1 }
        }
      }
      let other = Task.detached { seen.withLock { $0 = hops.snapshot } }
      await scheduler.advance()
      await other.value
      await hopper.value
    }
    // The other task ran while the hopper was still hopping, after one turn of its hops at most
    // (each iteration hops twice: into `hop()` and back).
    let seenAt = seen.snapshot ?? .max
    #expect(seenAt < 1_000)
    #expect(seenAt <= VirtualExecutor.hopsInARow)
    #expect(hops.snapshot == 1_000)
  }
}

/// A function that runs on its caller's actor, as `withTaskGroup` and
/// `withTaskCancellationHandler` do: called from a nonisolated task on the lane, it hops to the
/// global executor on entry (its isolation is nil), and the caller hops back on return.
private func hop(isolation: isolated (any Actor)? = #isolation) async {}
