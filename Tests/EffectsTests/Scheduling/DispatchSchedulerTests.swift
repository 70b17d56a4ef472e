import Dispatch
@testable import Effects
import Foundation
import Testing

/// The live scheduler, tested without waiting on time: every delay is zero, and its serial queue's
/// first-in-first-out order tells us what ran before what.
@Suite struct DispatchSchedulerTests {
  @Test func workRunsOnTheQueueInTheOrderItWasScheduled() async {
    let scheduler = DispatchScheduler()
    let order = Mutexed<[Int]>([])
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      scheduler.schedule(after: .zero) { order.update { $0.append(1) } }
      scheduler.schedule(after: .zero) { order.update { $0.append(2) } }
      scheduler.schedule(after: .zero) { done.resume() }
    }
    #expect(order.get() == [1, 2])
  }

  @Test func cancelledWorkNeverRuns() async {
    let scheduler = DispatchScheduler()
    let ran = Counter()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      // Scheduling from the queue itself holds the work back until the cancel has happened.
      scheduler.queue.sync {
        let work = scheduler.schedule(after: .zero) { ran.increment() }
        work.cancel()
        scheduler.schedule(after: .zero) { done.resume() }
      }
    }
    #expect(ran.value == 0)
  }

  @Test func repeatingWorkTicksUntilCancelled() async {
    let scheduler = DispatchScheduler()
    let ticks = Counter()
    let work = Mutexed<ScheduledWork?>(nil)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      scheduler.queue.sync {
        work.update {
          $0 = scheduler.schedule(after: .zero, every: .zero) {
            ticks.increment()
            if ticks.value == 3 {
              work.get()?.cancel()
              scheduler.schedule(after: .zero) { done.resume() }
            }
          }
        }
      }
    }
    #expect(ticks.value == 3)
  }

  @Test func durationsBecomeDispatchIntervalsClampedAtZero() {
    #expect(DispatchScheduler.interval(.milliseconds(1500)) == .nanoseconds(1_500_000_000))
    #expect(DispatchScheduler.interval(.seconds(-1)) == .nanoseconds(0))
    #expect(DispatchScheduler.interval(.seconds(Int64.max)) == .never)
  }
}
