import Dispatch
import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

@Suite struct TestSchedulerTests {
  @Test func runsWorkByDeadlineAndFirstScheduledFirstAtTheSameInstant() {
    let scheduler = TestScheduler()
    let order = Recorder<String>()
    scheduler.schedule(after: .seconds(2)) { order.append("b at 2s") }
    scheduler.schedule(after: .seconds(1)) { order.append("a at 1s") }
    scheduler.schedule(after: .seconds(2)) { order.append("c at 2s") }
    scheduler.schedule(after: .seconds(2)) { order.append("d at 2s") }
    scheduler.advanceSynchronously(by: .seconds(2))
    #expect(order.values == ["a at 1s", "b at 2s", "c at 2s", "d at 2s"])
  }

  /// Cancelled work is freed outside the scheduler's lock: a model it captured that cancels its
  /// other timers from its `deinit` cancels them, rather than hang.
  @Test func cancelledWorkWhoseCaptureCancelsOtherWorkWhenFreed() {
    let scheduler = TestScheduler()
    let ran = Recorder<String>()
    let refresh = scheduler.schedule(after: .seconds(2)) { ran.append("refresh") }
    let model = CancelsWhenFreed(refresh)
    let poll = scheduler.schedule(after: .seconds(1)) {
      _ = model
      ran.append("poll")
    }
    _ = consume model
    poll.cancel()
    scheduler.advanceSynchronously(by: .seconds(3))
    #expect(ran.values == [])
  }

  @Test func durationsAddUpExactlySoSumsAreTheSameInstant() {
    let scheduler = TestScheduler()
    let order = Recorder<String>()
    scheduler.schedule(after: .milliseconds(300)) { order.append("300 ms") }
    scheduler.advanceSynchronously(by: .milliseconds(100))
    scheduler.schedule(after: .milliseconds(200)) { order.append("100 + 200 ms") }
    scheduler.advanceSynchronously(by: .milliseconds(200))
    #expect(order.values == ["300 ms", "100 + 200 ms"])
    #expect(scheduler.elapsed == .milliseconds(300))
  }

  @Test func nowIsEachActionsOwnDeadlineWhileItRuns() {
    let start = Date(timeIntervalSince1970: 1_000)
    let scheduler = TestScheduler(now: start)
    let seen = Recorder<Date>()
    let elapsed = Recorder<Duration>()
    for delay in [Duration.milliseconds(250), .seconds(1), .seconds(3)] {
      scheduler.schedule(after: delay) {
        seen.append(scheduler.now)
        elapsed.append(scheduler.elapsed)
      }
    }
    scheduler.advanceSynchronously(by: .seconds(5))
    #expect(elapsed.values == [.milliseconds(250), .seconds(1), .seconds(3)])
    #expect(seen.values == [1_000.25, 1_001, 1_003].map { Date(timeIntervalSince1970: $0) })
    #expect(scheduler.now == Date(timeIntervalSince1970: 1_005))
  }

  @Test func workScheduledInsideTheWindowRunsInTheSameAdvance() {
    let scheduler = TestScheduler()
    let order = Recorder<Duration>()
    scheduler.schedule(after: .seconds(1)) {
      order.append(scheduler.elapsed)
      scheduler.schedule(after: .seconds(1)) { order.append(scheduler.elapsed) }
    }
    scheduler.advanceSynchronously(by: .seconds(2))
    #expect(order.values == [.seconds(1), .seconds(2)])
  }

  @Test func workScheduledOutsideTheWindowWaitsForTheNextAdvance() {
    let scheduler = TestScheduler()
    let order = Recorder<Duration>()
    scheduler.schedule(after: .seconds(1)) {
      scheduler.schedule(after: .seconds(2)) { order.append(scheduler.elapsed) }
    }
    scheduler.advanceSynchronously(by: .seconds(2))
    #expect(order.values == [])
    #expect(scheduler.pending.map(\.offset) == [.seconds(3)])
    scheduler.advanceSynchronously(by: .seconds(1))
    #expect(order.values == [.seconds(3)])
  }

  @Test func zeroDelayWorkScheduledByAnActionRunsAfterTheWorkAlreadyDueAtThatInstant() {
    let scheduler = TestScheduler()
    let order = Recorder<String>()
    scheduler.schedule(after: .seconds(1)) {
      order.append("first")
      scheduler.schedule(after: .zero) { order.append("nested, same instant") }
    }
    scheduler.schedule(after: .seconds(1)) { order.append("second") }
    scheduler.advanceSynchronously(by: .seconds(1))
    #expect(order.values == ["first", "second", "nested, same instant"])
  }

  @Test func cancelledWorkNeverRuns() {
    let scheduler = TestScheduler()
    let order = Recorder<String>()
    let work = scheduler.schedule(after: .seconds(1)) { order.append("cancelled") }
    scheduler.schedule(after: .seconds(1)) { order.append("kept") }
    work.cancel()
    work.cancel()
    #expect(scheduler.pending.count == 1)
    scheduler.advanceSynchronously(by: .seconds(1))
    #expect(order.values == ["kept"])
  }

  @Test func workCancelledDuringAnAdvanceDoesNotRunInThatAdvance() {
    let scheduler = TestScheduler()
    let order = Recorder<String>()
    let later = Locked<ScheduledWork?>(nil)
    scheduler.schedule(after: .seconds(1)) {
      order.append("canceller")
      later.snapshot?.cancel()
    }
    later.withLock { $0 = scheduler.schedule(after: .seconds(2)) { order.append("cancelled") } }
    scheduler.advanceSynchronously(by: .seconds(3))
    #expect(order.values == ["canceller"])
    scheduler.assertNoPendingWork()
  }

  @Test func aRepeatingTimerTicksOncePerIntervalWithoutDrift() {
    let scheduler = TestScheduler()
    let ticks = Recorder<Duration>()
    let timer = scheduler.schedule(after: .milliseconds(500), every: .seconds(1)) { ticks.append(scheduler.elapsed) }
    scheduler.advanceSynchronously(by: .milliseconds(499))
    #expect(ticks.values == [])
    scheduler.advanceSynchronously(by: .milliseconds(3_001))
    #expect(ticks.values == [.milliseconds(500), .milliseconds(1_500), .milliseconds(2_500), .milliseconds(3_500)])
    #expect(scheduler.pending.map(\.kind) == [.repeating(every: .seconds(1))])
    timer.cancel()
    scheduler.advanceSynchronously(by: .seconds(10))
    #expect(ticks.values.count == 4)
    scheduler.assertNoPendingWork()
  }

  @Test func aRepeatingTimerCanCancelItselfFromItsOwnAction() {
    let scheduler = TestScheduler()
    let ticks = Recorder<Duration>()
    let timer = Locked<ScheduledWork?>(nil)
    timer.withLock { handle in
      handle = scheduler.schedule(after: .seconds(1), every: .seconds(1)) {
        ticks.append(scheduler.elapsed)
        if ticks.values.count == 3 { timer.snapshot?.cancel() }
      }
    }
    scheduler.runSynchronously()
    #expect(ticks.values == [.seconds(1), .seconds(2), .seconds(3)])
    scheduler.assertNoPendingWork()
  }

  @Test func aDroppedNeverCancelledRepeatingTimerDoesNotOutliveItsScheduler() {
    weak var released: TestScheduler?
    let ticks = Recorder<Duration>()
    do {
      let scheduler = TestScheduler()
      released = scheduler
      scheduler.schedule(after: .seconds(1), every: .seconds(1)) { ticks.append(.seconds(1)) }
      scheduler.advanceSynchronously(by: .seconds(2))
    }
    #expect(released == nil)
    #expect(ticks.values.count == 2)
  }

  @Test func workHoldingItsOwnHandleIsReleasedWithTheSchedulerAndCancellingLaterIsHarmless() {
    /// Stands for a model that keeps the handle of the timer that calls it back.
    final class Model: Sendable {
      let handle = Locked<ScheduledWork?>(nil)
    }
    weak var releasedScheduler: TestScheduler?
    weak var releasedModel: Model?
    var handle: ScheduledWork?
    do {
      let scheduler = TestScheduler()
      let model = Model()
      releasedScheduler = scheduler
      releasedModel = model
      let work = scheduler.schedule(after: .seconds(1), every: .seconds(1)) { _ = model.handle.snapshot }
      model.handle.withLock { $0 = work }
      handle = work
    }
    #expect(releasedScheduler == nil)
    #expect(releasedModel == nil, "the queue kept the work (and so the model) after its scheduler went")
    handle?.cancel()
    handle?.cancel()
  }

  @Test func runRunsEverythingAndStopsAtTheLastDeadline() {
    let scheduler = TestScheduler()
    let order = Recorder<Duration>()
    scheduler.schedule(after: .seconds(5)) { order.append(scheduler.elapsed) }
    scheduler.schedule(after: .seconds(1)) {
      order.append(scheduler.elapsed)
      scheduler.schedule(after: .seconds(10)) { order.append(scheduler.elapsed) }
    }
    scheduler.runSynchronously()
    #expect(order.values == [.seconds(1), .seconds(5), .seconds(11)])
    #expect(scheduler.elapsed == .seconds(11))
    scheduler.assertNoPendingWork()
  }

  @Test func runStopsARunawayTimerAndReportsTheLineThatScheduledIt() {
    let scheduler = TestScheduler(maxRuns: 50)
    let ticks = Recorder<Duration>()
    scheduler.schedule(after: .seconds(1), every: .seconds(1)) { ticks.append(scheduler.elapsed) }
    let timerLine = #line - 1
    let runLine = #line + 2
    let issues = withCapturedIssues {
      scheduler.runSynchronously()
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          TestScheduler.runSynchronously() at EffectsTestSupportTests/TestSchedulerTests.swift:\(runLine) stopped \
          after 50 actions (maxRuns) with work still due: a repeating timer (every .seconds(1)) scheduled at \
          EffectsTestSupportTests/TestSchedulerTests.swift:\(timerLine) keeps running. Cancel it, \
          advanceSynchronously(by:) a bounded window instead of runSynchronously(), or raise maxRuns.
          """,
          line: timerLine
        )
      ]
    )
    #expect(ticks.values.count == 50)
    #expect(scheduler.elapsed == .seconds(50))
    #expect(withCapturedIssues { scheduler.assertNoPendingWork() }.issues.count == 1)
  }

  @Test func aNegativeAdvanceIsReportedAndMovesNothing() {
    let scheduler = TestScheduler()
    let order = Recorder<String>()
    scheduler.schedule(after: .zero) { order.append("due") }
    let line = #line + 2
    let issues = withCapturedIssues {
      scheduler.advanceSynchronously(by: .seconds(-1))
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          "TestScheduler.advanceSynchronously(by:) cannot move time backwards: got .seconds(-1). Pass .zero or a positive duration.",
          line: line
        )
      ]
    )
    #expect(scheduler.elapsed == .zero)
    #expect(order.values == [])
    scheduler.advanceSynchronously()
    #expect(order.values == ["due"])
  }

  @Test func advancingToAnEarlierInstantIsReported() {
    let scheduler = TestScheduler()
    scheduler.advanceSynchronously(to: .seconds(2))
    let line = #line + 2
    let issues = withCapturedIssues {
      scheduler.advanceSynchronously(to: .seconds(1))
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          TestScheduler.advanceSynchronously(to:) cannot move time backwards: asked for .seconds(1) after the start, \
          but .seconds(2) has already passed. Pass an instant at or after `elapsed`.
          """,
          line: line
        )
      ]
    )
    #expect(scheduler.elapsed == .seconds(2))
  }

  @Test func advanceToRunsWorkUpToThatInstant() {
    let scheduler = TestScheduler()
    let order = Recorder<Duration>()
    scheduler.schedule(after: .seconds(3)) { order.append(scheduler.elapsed) }
    scheduler.schedule(after: .seconds(4)) { order.append(scheduler.elapsed) }
    scheduler.advanceSynchronously(to: .seconds(3))
    #expect(order.values == [.seconds(3)])
    #expect(scheduler.elapsed == .seconds(3))
  }

  @Test func aNegativeDelayIsReportedAtTheSchedulingLineAndCountsAsZero() {
    let scheduler = TestScheduler()
    let order = Recorder<String>()
    let line = #line + 2
    let issues = withCapturedIssues {
      scheduler.schedule(after: .seconds(-2)) { order.append("ran") }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          "TestScheduler.schedule(after:) got a negative delay, .seconds(-2), and counts it as zero. Pass .zero or more.",
          line: line
        )
      ]
    )
    scheduler.advanceSynchronously()
    #expect(order.values == ["ran"])
  }

  @Test func aRepeatingIntervalThatIsNotPositiveIsReportedAndRunsOnce() {
    let scheduler = TestScheduler()
    let ticks = Recorder<Duration>()
    let line = #line + 2
    let issues = withCapturedIssues {
      scheduler.schedule(after: .seconds(1), every: .zero) { ticks.append(scheduler.elapsed) }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          TestScheduler.schedule(after:every:) needs a positive interval: got .seconds(0). Repeating at one instant \
          would never end, so the work runs once. Pass an interval greater than zero.
          """,
          line: line
        )
      ]
    )
    scheduler.runSynchronously()
    #expect(ticks.values == [.seconds(1)])
  }

  @Test func advanceWithNoDurationRunsOnlyWhatIsDueNow() {
    let scheduler = TestScheduler()
    let order = Recorder<String>()
    scheduler.schedule(after: .zero) { order.append("now") }
    scheduler.schedule(after: .nanoseconds(1)) { order.append("later") }
    scheduler.advanceSynchronously()
    #expect(order.values == ["now"])
    #expect(scheduler.elapsed == .zero)
  }

  @Test func pendingListsDeadlineCallSiteAndKindInRunOrder() {
    let scheduler = TestScheduler(now: Date(timeIntervalSince1970: 0))
    scheduler.schedule(after: .seconds(2), every: .seconds(5)) {}
    let repeatingLine = #line - 1
    scheduler.schedule(after: .seconds(1)) {}
    let onceLine = #line - 1
    scheduler.schedule(after: .seconds(3)) {}.cancel()
    let pending = scheduler.pending
    #expect(pending.map(\.offset) == [.seconds(1), .seconds(2)])
    #expect(pending.map(\.callSite.line) == [UInt(onceLine), UInt(repeatingLine)])
    #expect(pending.map(\.kind) == [.once, .repeating(every: .seconds(5))])
    #expect(
      pending.first?.description
        == "work due at .seconds(1), scheduled at EffectsTestSupportTests/TestSchedulerTests.swift:\(onceLine)"
    )
  }

  @Test func assertNoPendingWorkPassesWhenEverythingRan() {
    let scheduler = TestScheduler()
    scheduler.schedule(after: .seconds(1)) {}
    scheduler.schedule(after: .seconds(2)) {}.cancel()
    scheduler.advanceSynchronously(by: .seconds(1))
    scheduler.assertNoPendingWork()
  }

  @Test func assertNoPendingWorkListsEachLeftoverWithItsLineThenDropsIt() {
    let scheduler = TestScheduler()
    scheduler.schedule(after: .seconds(1)) {}
    let firstLine = #line - 1
    scheduler.schedule(after: .seconds(1), every: .seconds(1)) {}
    let secondLine = #line - 1
    let assertLine = #line + 2
    let issues = withCapturedIssues {
      scheduler.assertNoPendingWork()
    }.issues
    let file = "EffectsTestSupportTests/TestSchedulerTests.swift"
    #expect(
      issues == [
        CapturedIssue(
          """
          TestScheduler has 2 pieces of work pending at .seconds(0), expected none:
            [0] work due at .seconds(1), scheduled at \(file):\(firstLine)
            [1] repeating work (every .seconds(1)) due at .seconds(1), scheduled at \(file):\(secondLine)
          Run them with advance(by:) or run() before this line, or cancel them.
          """,
          line: assertLine
        )
      ]
    )
    #expect(scheduler.pending == [])
  }

  @Test func workScheduledFromManyThreadsAllRunsInDeadlineOrder() {
    let scheduler = TestScheduler()
    let ran = Recorder<Duration>()
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for index in 0..<500 {
        scheduler.schedule(after: .milliseconds(index * 8 + thread)) { ran.append(scheduler.elapsed) }
      }
    }
    #expect(scheduler.pending.count == 4_000)
    scheduler.advanceSynchronously(by: .seconds(10))
    #expect(ran.values == (0..<4_000).map { .milliseconds($0) })
  }

  @Test func debouncedSearchRunsOnlyOnceTheUserStopsTyping() {
    let scheduler = TestScheduler()
    let model = DebouncedSearch(environment: .test(scheduler: scheduler))
    model.type("s")
    #expect(scheduler.pending.map(\.offset) == [.milliseconds(300)])
    scheduler.advanceSynchronously(by: .milliseconds(100))
    #expect(model.searches == [])
    model.type("sw")
    #expect(scheduler.pending.map(\.offset) == [.milliseconds(400)])
    scheduler.advanceSynchronously(by: .milliseconds(100))
    #expect(model.searches == [])
    model.type("swi")
    #expect(scheduler.pending.map(\.offset) == [.milliseconds(500)])
    scheduler.advanceSynchronously(by: .milliseconds(299))
    #expect(model.searches == [])
    scheduler.advanceSynchronously(by: .milliseconds(1))
    #expect(model.searches == ["swi"])
    #expect(model.searchedAt == [Date(timeIntervalSinceReferenceDate: 0.5)])
    scheduler.advanceSynchronously(by: .seconds(10))
    #expect(model.searches == ["swi"])
    scheduler.assertNoPendingWork()
  }
}

/// The `@MainActor` model of `TestScheduler`'s documentation.
@MainActor private final class MainActorSearchModel {
  private(set) var searches: [String] = []
  private var pending: ScheduledWork?

  func type(_ query: String, environment: Environment) {
    pending?.cancel()
    pending = environment.scheduler.schedule(after: .milliseconds(300)) { [weak self] in
      MainActor.assumeIsolated { self?.searches.append(query) }
    }
  }
}

@Suite struct TestSchedulerMainActorTests {
  @MainActor @Test func aMainActorModelRunsItsWorkOnTheMainActorWhenTheTestAdvances() {
    let scheduler = TestScheduler()
    let environment = Environment.test(scheduler: scheduler)
    let model = MainActorSearchModel()
    model.type("s", environment: environment)
    scheduler.advanceSynchronously(by: .milliseconds(100))
    model.type("sw", environment: environment)
    scheduler.advanceSynchronously(by: .milliseconds(299))
    #expect(model.searches == [])
    scheduler.advanceSynchronously(by: .milliseconds(1))
    #expect(model.searches == ["sw"])
    scheduler.assertNoPendingWork()
  }
}

/// A search box that searches 300 ms after the last keystroke.
private final class DebouncedSearch: Sendable {
  private let environment: Environment
  private let pending = Locked<ScheduledWork?>(nil)
  private let log = Locked<[(query: String, at: Date)]>([])

  init(environment: Environment) {
    self.environment = environment
  }

  var searches: [String] { log.snapshot.map(\.query) }
  var searchedAt: [Date] { log.snapshot.map(\.at) }

  func type(_ query: String) {
    let work = environment.scheduler.schedule(after: .milliseconds(300)) { [environment, log] in
      log.withLock { $0.append((query, environment.clock.now)) }
    }
    pending.withLock { previous in
      previous?.cancel()
      previous = work
    }
  }
}

/// A model that cancels its scheduled work when it is freed.
private final class CancelsWhenFreed: Sendable {
  let work: ScheduledWork

  init(_ work: ScheduledWork) {
    self.work = work
  }

  deinit { work.cancel() }
}
