import Effects
import Foundation

// A test that awaits something while every task of its scope sleeps on virtual time — most often
// `await task.value` on a task asleep past the last advance — waits for ever: only the test moves
// time. The watchdog finds the scope so, the scope moves time to the next deadline itself, and the
// test is told where it waited (#42).

@available(EffectsVirtualTime, *)
extension VirtualExecutor {
  /// What the scope's scheduler did for a stalled test: what was asleep, and where time went.
  /// Nothing is symbolicated here (that takes up to a few hundred milliseconds, and this runs on
  /// the watchdog's thread, whose looks at every scope must not come late): the report does it,
  /// on the test's task.
  struct MovedForStall: Sendable {
    /// How many tasks slept until ``to``.
    var count: Int
    /// Where the first of them was queued, and its resume points (where it slept, when its site
    /// names no line).
    var queuedAt: CallSite
    var sleptAt: [UInt]
    /// The instant time was moved to; for sleeps until the end of virtual time, the instant they
    /// slept until, which never comes (time stayed where it was).
    var to: Duration
    /// Whether the sleeping tasks were cancelled instead (they slept until the end of virtual
    /// time).
    var cancelled = false
  }

  /// A stall the scope has moved time for, waiting to be reported on the test's task.
  struct Stall {
    /// The first move; nil while it is being made (set first, so that the test's resumption,
    /// which the move may queue at once, is seen).
    var first: MovedForStall?
    /// How many times time was moved for the stalled test since the report.
    var times = 0
    /// The resume points of the test as it went on after the stall (its job, queued, not run):
    /// where it waited.
    var awaitedAt: [UInt] = []
  }

  /// Sets the scope's scheduler, which moves time for a stalled test, until the scope closes.
  ///
  /// Held strongly, not through a closure with a weak capture: that cost every scope two
  /// allocations (the closure's context and the scheduler's weak side table), which the benchmark
  /// `scopes.1e3.effects` counted. The cycle it makes (the scheduler holds its open scope) ends
  /// when the scope closes.
  func whenStalled(move scheduler: TestScheduler) {
    condition.lock()
    stalledScheduler = scheduler
    condition.unlock()
  }

  /// How long the scope must look stalled before it moves time: a second (five under the thread
  /// sanitizer) the first time, since the test may be waiting for something real; one look after
  /// that, for the next sleep of the same wait.
  private var stallPatience: Duration {
    stallsMoved == 0 ? LaneWatchdog.waitingLimit : LaneWatchdog.interval
  }

  /// One look of the watchdog: whether the scope is stalled — its test suspended waiting on a
  /// task or a continuation, no job of the scope queued or running, no advance under way, nothing
  /// finished since the last look — and, once it has been for ``stallPatience``, moves time to
  /// the next deadline through ``stalledScheduler``. `afterStop`: the process was stopped since the last
  /// look (a debugger), which no stall is charged for.
  func judgeStall(elapsed: Duration, afterStop: Bool) {
    condition.lock()
    // A test in a real sleep of its own waits for real time, not for the scope: left alone (the
    // sleep is reported as such).
    let quiet =
      !closed && inFlight == 0 && idleWaiters.isEmpty && sleepingDriver == nil && finishedJobs == stallMark
      && !afterStop && !escapes.contains(where: \.byDriver)
    stallMark = finishedJobs
    guard quiet, let driver else {
      stalledFor = .zero
      condition.unlock()
      return
    }
    stalledFor += elapsed
    let due = stalledFor >= stallPatience
    let scheduler = stalledScheduler
    condition.unlock()
    guard due, ScopeTasks.isWaitingOnADependency(driver), !Platform.isTraced else {
      if due { resetStall() }
      return
    }
    condition.lock()
    if stall == nil { stall = Stall() }
    condition.unlock()
    let moved = movingTime(scheduler)
    condition.lock()
    stalledFor = .zero
    if let moved {
      stallsMoved += 1
      if stall?.first == nil { stall?.first = moved }
      stall?.times += 1
    } else if stall?.times == 0 {
      stall = nil
    }
    condition.unlock()
  }

  /// Moves time on `scheduler` as the scope's own work (on behalf of its lane), so that what it
  /// resumes is queued as the scope's, not as an escape from outside.
  private func movingTime(_ scheduler: TestScheduler?) -> MovedForStall? {
    let previous = Self.lane.value
    Self.lane.set(Unmanaged.passUnretained(self).toOpaque())
    defer { Self.lane.set(previous) }
    return scheduler?.moveTimeForStalledTest()
  }

  private func resetStall() {
    condition.lock()
    stalledFor = .zero
    condition.unlock()
  }

  /// Reads where the test waited, when `job` (queued by the scope, not run yet) is the test's own
  /// resumption after a stall. Called with the lock held.
  func noteDriverResumedAfterStall(_ job: UnownedJob) {
    guard let driver, ScopeTasks.address(of: job) == driver, stall?.awaitedAt.isEmpty == true else { return }
    stall?.awaitedAt = ScopeTasks.resumePoints(ofQueuedTask: driver) ?? []
  }

  /// The stall since the last call, if any, for the test's task to report.
  func takeStall() -> Stall? {
    condition.lock()
    defer { condition.unlock() }
    // Not while the test has not gone on yet: its line is read when it does.
    guard let taken = stall, taken.first != nil, !taken.awaitedAt.isEmpty || closed else { return nil }
    stall = nil
    return taken
  }
}
