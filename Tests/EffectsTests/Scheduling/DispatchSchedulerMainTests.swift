import Dispatch
import Effects
import Foundation
import Testing

/// The main-queue scheduler, tested without waiting on time: delays are zero (or a millisecond,
/// where only the order of deadlines matters), each test awaits a last piece of work that resumes
/// it, and the main queue's first-in-first-out order tells us what ran before what. On Linux the
/// main queue is drained by the test runner's main thread, as it is by an app's run loop.
/// `.timeLimit` turns a hang into a failure.
@Suite(.timeLimit(.minutes(1)))
struct DispatchSchedulerMainTests {
  @Test func workRunsOnTheMainQueueAndSoOnTheMainActor() async {
    let scheduler = DispatchScheduler.main
    let onMainQueue = Mutexed<[Bool]>([])
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      scheduler.schedule(after: .zero) {
        onMainQueue.update { $0.append(MainQueueProbe.isCurrent) }
        // Both trap unless this is the main queue, and so the main actor.
        dispatchPrecondition(condition: .onQueue(.main))
        MainActor.assumeIsolated { onMainQueue.update { $0.append(MainQueueProbe.isCurrent) } }
        done.resume()
      }
    }
    #expect(onMainQueue.get() == [true, true])
  }

  @Test func workScheduledFromAnyThreadRunsOnTheMainQueue() async {
    let scheduler = DispatchScheduler.main
    let offMain = Counter()
    let runs = 300
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<runs {
        group.addTask {
          await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            scheduler.schedule(after: .zero) {
              if !MainQueueProbe.isCurrent { offMain.increment() }
              done.resume()
            }
          }
        }
      }
    }
    #expect(offMain.value == 0)
  }

  @Test func workDueAtOnceRunsInTheOrderItWasScheduled() async {
    let scheduler = DispatchScheduler.main
    var deviations = 0
    for _ in 0..<500 {
      let order = Mutexed<[Int]>([])
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        for index in 0..<10 {
          scheduler.schedule(after: .zero) { order.update { $0.append(index) } }
        }
        scheduler.schedule(after: .zero) { done.resume() }
      }
      if order.get() != Array(0..<10) { deviations += 1 }
    }
    #expect(deviations == 0)
  }

  @Test func mainActorAndSendableWorkRunInTheOrderItWasScheduled() async {
    let scheduler = DispatchScheduler.main
    var deviations = 0
    for _ in 0..<500 {
      let order = Mutexed<[String]>([])
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        scheduler.schedule(after: .zero) { order.update { $0.append("sendable 1") } }
        scheduler.schedule(after: .zero) { @MainActor in order.update { $0.append("main actor 1") } }
        scheduler.schedule(after: .zero) { order.update { $0.append("sendable 2") } }
        scheduler.schedule(after: .zero) { @MainActor in order.update { $0.append("main actor 2") } }
        scheduler.schedule(after: .zero) { done.resume() }
      }
      if order.get() != ["sendable 1", "main actor 1", "sendable 2", "main actor 2"] { deviations += 1 }
    }
    #expect(deviations == 0)
  }

  @MainActor @Test func workCancelledBeforeItsTurnNeverRuns() async {
    let scheduler = DispatchScheduler.main
    let ran = Counter()
    for _ in 0..<500 {
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        // The test holds the main actor, so neither can start before the cancels.
        scheduler.schedule(after: .zero) { ran.increment() }.cancel()
        scheduler.schedule(after: .zero) { @MainActor in ran.increment() }.cancel()
        scheduler.schedule(after: .zero) { done.resume() }
      }
    }
    #expect(ran.value == 0)
  }

  @MainActor @Test func aModelsCallbackUsesItsStateDirectly() async {
    let scheduler = DispatchScheduler.main
    let model = ToastModel()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      model.show("Saved", hidingAfter: .zero, on: scheduler) { done.resume() }
      #expect(model.message == "Saved")
    }
    #expect(model.message == nil)
  }

  @MainActor @Test func repeatingWorkTicksOnTheMainActorUntilCancelled() async {
    let scheduler = DispatchScheduler.main
    var deviations = 0
    for _ in 0..<100 {
      let model = TickingModel()
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        model.start(every: .milliseconds(1), on: scheduler, stoppingAfter: 3) {
          // Every cancelled tick was due before this runs: the deadlines of ticks 4 and 5 come
          // first, so it sees whatever they did.
          scheduler.schedule(after: .milliseconds(3)) { @MainActor in done.resume() }
        }
      }
      if model.ticks != 3 { deviations += 1 }
    }
    #expect(deviations == 0)
  }

  @Test func repeatingSendableWorkTicksUntilCancelled() async {
    let scheduler = DispatchScheduler.main
    let ticks = Counter()
    let work = Mutexed<ScheduledWork?>(nil)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      // Set up on the main queue, so that the first tick cannot run before `work` holds its handle.
      DispatchQueue.main.async {
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

  @Test func sleepingThrowsCancellationErrorWhenTheTaskIsCancelled() async {
    let scheduler = DispatchScheduler.main
    let sleeping = Task { try await scheduler.sleep(for: .seconds(3600)) }
    sleeping.cancel()
    await #expect(throws: CancellationError.self) { try await sleeping.value }
  }

  @MainActor @Test func aMainActorTaskWakesFromSleepOnTheMainActor() async throws {
    let scheduler = DispatchScheduler.main
    try await scheduler.sleep(for: .milliseconds(1))
    MainActor.assertIsolated()
    #expect(MainQueueProbe.isCurrent)
  }

}

/// A view model whose callbacks touch its state without `MainActor.assumeIsolated`.
@MainActor private final class ToastModel {
  private(set) var message: String?

  func show(
    _ text: String,
    hidingAfter delay: Duration,
    on scheduler: any WorkScheduler,
    then: @escaping @MainActor () -> Void
  ) {
    message = text
    scheduler.schedule(after: delay) { @MainActor in
      self.message = nil
      then()
    }
  }
}

@MainActor private final class TickingModel {
  private(set) var ticks = 0
  private var ticking: ScheduledWork?

  func start(
    every interval: Duration,
    on scheduler: any WorkScheduler,
    stoppingAfter limit: Int,
    then: @escaping @MainActor () -> Void
  ) {
    ticking = scheduler.schedule(after: .zero, every: interval) { @MainActor in
      self.ticks += 1
      if self.ticks == limit {
        self.ticking?.cancel()
        then()
      }
    }
  }
}
