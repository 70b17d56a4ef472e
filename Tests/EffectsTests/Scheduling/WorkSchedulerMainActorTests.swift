import Dispatch
import Effects
import Foundation
import Testing

/// `@MainActor` work given to schedulers that do not run it on the main queue: it is sent on to
/// the main actor, in order, and cancelling stops it even after it was sent. No test waits on
/// time; `.timeLimit` turns a hang into a failure.
@Suite(.timeLimit(.minutes(1)))
struct WorkSchedulerMainActorTests {
  @Test func mainActorWorkOnAPrivateQueueRunsOnTheMainActorInOrder() async {
    let scheduler = DispatchScheduler()
    var deviations: [String] = []
    for replay in 0..<500 {
      let runs = Mutexed<[(index: Int, onMainQueue: Bool)]>([])
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        for index in 0..<5 {
          scheduler.schedule(after: .zero) { @MainActor in
            runs.update { $0.append((index, MainQueueProbe.isCurrent)) }
            if index == 4 { done.resume() }
          }
        }
      }
      let seen = runs.get()
      if seen.map(\.index) != Array(0..<5) || seen.contains(where: { !$0.onMainQueue }) {
        deviations.append("\(replay): \(seen)")
      }
    }
    #expect(deviations == [])
  }

  @Test func aClosureNotMarkedMainActorStillRunsOnTheSchedulersQueue() async {
    let scheduler = DispatchScheduler()
    let onMainQueue = Mutexed<Bool?>(nil)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      scheduler.schedule(after: .zero) {
        dispatchPrecondition(condition: .onQueue(scheduler.queue))
        onMainQueue.update { $0 = MainQueueProbe.isCurrent }
        done.resume()
      }
    }
    #expect(onMainQueue.get() == false)
  }

  @MainActor @Test func mainActorWorkCancelledAfterItWasSentOnNeverRuns() async {
    let scheduler = DispatchScheduler()
    let ran = Counter()
    for _ in 0..<500 {
      let work = scheduler.schedule(after: .zero) { @MainActor in ran.increment() }
      // The main actor is held here until the private queue has sent the work on to it.
      waitUntilTheQueueHasRunWhatItHolds(scheduler)
      work.cancel()
      // Sent on after the cancelled work, so it runs after it: the main actor is first in, first out.
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        scheduler.schedule(after: .zero) { @MainActor in done.resume() }
      }
    }
    #expect(ran.value == 0)
  }

  @MainActor @Test func repeatingMainActorWorkOnAPrivateQueueStopsWhenCancelled() async {
    let scheduler = DispatchScheduler()
    var deviations: [Int] = []
    for _ in 0..<100 {
      let ticks = Counter()
      let ticking = Mutexed<ScheduledWork?>(nil)
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let work = scheduler.schedule(after: .zero, every: .milliseconds(1)) { @MainActor in
          ticks.increment()
          guard ticks.value == 3 else { return }
          // Ticks already sent on to the main actor come before the end below, and see the cancel.
          ticking.get()?.cancel()
          scheduler.schedule(after: .zero) { @MainActor in done.resume() }
        }
        ticking.update { $0 = work }
      }
      if ticks.value != 3 { deviations.append(ticks.value) }
    }
    #expect(deviations == [])
  }

  @MainActor @Test func onTheMainActorAnInlineSchedulerRunsMainActorWorkBeforeReturning() {
    let model = Flag()
    InlineScheduler().schedule(after: .seconds(60)) { @MainActor in model.isSet = true }
    #expect(model.isSet)
  }

  @Test func offTheMainActorAnInlineSchedulerSendsMainActorWorkOn() async {
    let onMainQueue = Mutexed<Bool?>(nil)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      InlineScheduler().schedule(after: .seconds(60)) { @MainActor in
        onMainQueue.update { $0 = MainQueueProbe.isCurrent }
        done.resume()
      }
    }
    #expect(onMainQueue.get() == true)
  }

  @MainActor @Test func aMainActorMethodCanBeScheduledByName() async {
    let model = Flag()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      DispatchScheduler.main.schedule(after: .zero, onMainActor: model.set)
      DispatchScheduler.main.schedule(after: .zero) { @MainActor in done.resume() }
    }
    #expect(model.isSet)
  }
}

/// Blocks until `scheduler`'s queue has run the work due on it now, without leaving the caller's
/// actor: a last piece of work, due after the rest, signals.
private func waitUntilTheQueueHasRunWhatItHolds(_ scheduler: DispatchScheduler) {
  let ran = DispatchSemaphore(value: 0)
  scheduler.schedule(after: .zero) { ran.signal() }
  ran.wait()
}

@MainActor private final class Flag {
  var isSet = false

  func set() {
    isSet = true
  }
}
