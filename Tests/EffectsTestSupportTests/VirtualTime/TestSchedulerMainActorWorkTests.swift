import Effects
import EffectsTestSupport
import Foundation
import Testing

/// How many times each scope-based test is replayed; every step of every replay is checked.
private let replays = ProcessInfo.processInfo.environment["EFFECTS_REPLAYS"].flatMap(Int.init) ?? 500

/// A `@MainActor` view model whose callback touches its state directly.
@MainActor private final class ToastModel {
  private(set) var message: String?
  private(set) var hiddenAt: Duration?
  private var hiding: ScheduledWork?
  private let scheduler: TestScheduler

  init(scheduler: TestScheduler) {
    self.scheduler = scheduler
  }

  func show(_ text: String) {
    message = text
    hiding?.cancel()
    hiding = Environment.test(scheduler: scheduler).scheduler.schedule(after: .seconds(3)) {
      @MainActor [weak self] in
      self?.message = nil
      self?.hiddenAt = self?.scheduler.elapsed
    }
  }
}

/// `@MainActor` work on the test scheduler: run at exactly its deadline, in order with the rest,
/// on the main actor — with no hop when the test drives time from the main actor, and with one
/// that `await advance` waits for when a nonisolated test drives it inside a virtual-time scope.
@Suite struct TestSchedulerMainActorWorkTests {
  @MainActor @Test func aMainActorCallbackRunsAtExactlyItsDeadline() {
    let scheduler = TestScheduler()
    let model = ToastModel(scheduler: scheduler)
    model.show("Saved")
    scheduler.advanceSynchronously(by: .milliseconds(2_999))
    #expect(model.message == "Saved")
    scheduler.advanceSynchronously(by: .milliseconds(1))
    #expect(model.message == nil)
    #expect(model.hiddenAt == .seconds(3))
    scheduler.assertNoPendingWork()
  }

  @MainActor @Test func showingAgainCancelsTheFirstHiding() {
    let scheduler = TestScheduler()
    let model = ToastModel(scheduler: scheduler)
    model.show("Saved")
    scheduler.advanceSynchronously(by: .seconds(2))
    model.show("Saved again")
    #expect(scheduler.pending.map(\.offset) == [.seconds(5)])
    scheduler.advanceSynchronously(by: .milliseconds(2_999))
    #expect(model.message == "Saved again")
    scheduler.advanceSynchronously(by: .milliseconds(1))
    #expect(model.message == nil)
    #expect(model.hiddenAt == .seconds(5))
  }

  @MainActor @Test func mainActorAndSendableWorkDueAtOneInstantRunInTheOrderItWasScheduled() {
    let scheduler = TestScheduler()
    let order = Recorder<String>()
    scheduler.schedule(after: .seconds(1)) { order.append("sendable 1") }
    scheduler.schedule(after: .seconds(1)) { @MainActor in order.append("main actor 1") }
    scheduler.schedule(after: .seconds(1)) { order.append("sendable 2") }
    scheduler.schedule(after: .seconds(1)) { @MainActor in order.append("main actor 2") }
    scheduler.advanceSynchronously(by: .seconds(1))
    #expect(order.values == ["sendable 1", "main actor 1", "sendable 2", "main actor 2"])
  }

  @MainActor @Test func cancelledMainActorWorkNeverRunsAndIsNoLongerPending() {
    let scheduler = TestScheduler()
    let ran = Recorder<Int>()
    let work = scheduler.schedule(after: .seconds(1)) { @MainActor in ran.append(1) }
    work.cancel()
    #expect(scheduler.pending == [])
    scheduler.advanceSynchronously(by: .seconds(10))
    #expect(ran.values == [])
  }

  @MainActor @Test func repeatingMainActorWorkTicksAtItsDeadlinesUntilCancelled() {
    let scheduler = TestScheduler()
    let ticks = Recorder<Duration>()
    let ticking = Recorder<ScheduledWork>()
    let work = scheduler.schedule(after: .seconds(1), every: .seconds(1)) { @MainActor in
      ticks.append(scheduler.elapsed)
      if ticks.values.count == 3 { ticking.values.first?.cancel() }
    }
    ticking.append(work)
    scheduler.advanceSynchronously(by: .seconds(10))
    #expect(ticks.values == [.seconds(1), .seconds(2), .seconds(3)])
    scheduler.assertNoPendingWork()
  }

  @MainActor @Test func inAScopeAMainActorTestSeesMainActorWorkAfterEachAwaitedAdvance() async {
    var deviations: [String] = []
    for replay in 0..<replays {
      let scheduler = TestScheduler()
      await scheduler.withVirtualTime {
        let model = ToastModel(scheduler: scheduler)
        model.show("Saved")
        await scheduler.advance(by: .milliseconds(2_999))
        if model.message != "Saved" { deviations.append("\(replay) at 2.999 s: \(String(describing: model.message))") }
        await scheduler.advance(by: .milliseconds(1))
        if model.message != nil || model.hiddenAt != .seconds(3) {
          deviations.append(
            "\(replay) at 3 s: \(String(describing: model.message)), \(String(describing: model.hiddenAt))"
          )
        }
      }
    }
    #expect(deviations == [])
  }

  /// The scope's thread is not the main queue, so each action is sent on to the main actor as a
  /// task; the scope counts that task, and `await advance` returns only after it ran. The values
  /// are read straight from a lock, with no hop to the main actor that would queue behind it.
  @Test func inAScopeANonisolatedTestSeesMainActorWorkAfterEachAwaitedAdvance() async {
    var deviations: [String] = []
    for replay in 0..<replays {
      let scheduler = TestScheduler()
      let runs = Recorder<Duration>()
      await scheduler.withVirtualTime {
        let ticking = scheduler.schedule(after: .seconds(1), every: .seconds(1)) { @MainActor in
          runs.append(scheduler.elapsed)
        }
        scheduler.schedule(after: .milliseconds(1_500)) { @MainActor in runs.append(.milliseconds(1_500)) }
        await scheduler.advance(by: .milliseconds(999))
        if runs.values != [] { deviations.append("\(replay) at 0.999 s: \(runs.values)") }
        await scheduler.advance(by: .milliseconds(1))
        if runs.values != [.seconds(1)] { deviations.append("\(replay) at 1 s: \(runs.values)") }
        await scheduler.advance(by: .seconds(1))
        if runs.values != [.seconds(1), .milliseconds(1_500), .seconds(2)] {
          deviations.append("\(replay) at 2 s: \(runs.values)")
        }
        ticking.cancel()
      }
    }
    #expect(deviations == [])
  }
}
