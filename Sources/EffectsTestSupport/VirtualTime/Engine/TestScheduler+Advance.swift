import Dispatch
import Effects

extension TestScheduler {

  /// The advance the scope makes for a test whose own sleep stranded it: to the sleep's deadline,
  /// as `advance(to:)` from the line that slept.
  @available(EffectsVirtualTime, *)
  func advanceForStrandedSleep(
    to deadline: Duration,
    at caller: CallSite,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    await drive("await TestScheduler.advance(to:)", at: caller) { .time(deadline) }
  }

  /// The body every async form shares: let the scope's tasks settle, work out the goal (`nil`
  /// when bad input was already reported), then run to it, settling after each action. Outside a
  /// scope it runs like the synchronous form, reporting the sleeping tasks it cannot wait for.
  func drive(
    _ operation: String,
    at caller: CallSite,
    isolation: isolated (any Actor)? = #isolation,
    goal: () -> Goal?
  ) async {
    guard #available(EffectsVirtualTime , *), let executor = scopeExecutor(for: operation, at: caller) else {
      // Outside any scope, scheduled actions are as exact as in the synchronous form; only a
      // sleeping task it resumes cannot be waited for, and that is reported.
      drain(caller: caller, operation: operation, cannotWait: .outsideAScope, to: goal)
      return
    }
    guard beginDriving(operation, at: caller) else { return }
    reportEscapes(of: executor, at: FailureLocation(caller))
    // A scope whose tasks never all suspend (a Task.yield() loop) is given up on and reported
    // once; from then on this call waits for it only briefly.
    var patience = VirtualExecutor.Patience.advance
    if !executor.isSettled(drive: caller, isolation: isolation),
      !(await settle(executor, drive: caller, patience: patience))
    {
      guard givenUp(operation, at: caller, patience: &patience) else { return endDriving() }
    }
    guard let goal = goal() else {
      endDriving()
      return
    }
    // Run due work one action or sleeper at a time, letting the tasks settle after each. (Inline,
    // not a function of its own: one async call less on every step.)
    var drain = Drain(until: goal.target, limit: maxRuns, caller: caller, operation: operation, cannotWait: nil)
    while drain.runNext(self) {
      // Most steps enqueue nothing (a callback that only changes state): the check costs a lock,
      // where a settle costs an async call even when nothing runs.
      if !executor.isSettled(drive: caller, isolation: isolation),
        !(await settle(executor, drive: caller, patience: patience))
      {
        guard givenUp(operation, at: caller, patience: &patience) else { break }
      }
      if drain.reachedLimit(self) { break }
    }
    drain.finish(self)
  }

  /// Reports an async form that stopped waiting for the scope's tasks, and whether it goes on:
  /// after a busy scope, yes (once reported, it waits only briefly from then on); after the
  /// waiting task was cancelled (a test's time limit), no.
  @available(EffectsVirtualTime, *)
  private func givenUp(_ operation: String, at caller: CallSite, patience: inout VirtualExecutor.Patience) -> Bool {
    if Task.isCancelled {
      reportIssue(
        VirtualTimeWording.cancelledWhileWaiting(operation: operation),
        kind: .busyScope,
        at: caller
      )
      return false
    }
    guard patience.busyLooks > VirtualExecutor.Patience.advanceAfterGivingUp.busyLooks else { return true }
    reportIssue(
      VirtualTimeWording.gaveUpOnABusyScope(
        operation: operation,
        busyJobs: patience.busyJobs,
        busyLooks: patience.busyLooks,
        interval: patience.interval.literal
      ),
      kind: .busyScope,
      at: caller
    )
    patience = .advanceAfterGivingUp
    return true
  }

  /// The executor of the caller's scope, or nil when there is none (reported when the caller is a
  /// task that outlived a scope, or stands outside this scheduler's open scope).
  ///
  /// The scope of another scheduler is reported too — this scheduler's work would be run under a
  /// scope that is not its own — but still used: it waits for every task of the caller's scope.
  @available(EffectsVirtualTime, *)
  private func scopeExecutor(for operation: String, at caller: CallSite) -> VirtualExecutor? {
    // The common case reads one reference under the lock; the scope's site only for a report.
    let current = VirtualExecutor.current
    if let current, state.withLock({ $0.scope?.executor === current }) { return current }
    let own = state.withLock { $0.scope }
    if let executor = current {
      reportIssue(
        VirtualTimeWording.advancedInAnotherSchedulersScope(
          operation: operation,
          ownScopeSite: own?.site
        ),
        kind: .wrongScheduler,
        at: caller
      )
      return executor
    }
    if let executor = VirtualExecutor.scope {
      reportIssue(
        VirtualTimeWording.advancedByATaskThatOutlivedItsScope(operation: operation),
        kind: .wrongScheduler,
        at: caller
      )
      _ = executor
      return nil
    }
    if let own {
      reportIssue(
        VirtualTimeWording.advancedFromOutsideTheScope(operation: operation, site: own.site),
        kind: .wrongScheduler,
        at: caller
      )
      return nil
    }
    return nil
  }

  /// Waits until every task of the scope has reached its next suspension.
  ///
  /// A caller isolated to an actor other than the main actor first steps off it: jobs queued on
  /// that actor while the caller holds it (a `Task {}` started there, a call from another task)
  /// only become the scope's jobs once the actor is free.
  @discardableResult
  @available(EffectsVirtualTime, *)
  func settle(
    _ executor: VirtualExecutor,
    drive: CallSite?,
    patience: VirtualExecutor.Patience? = nil,
    isolation: isolated (any Actor)? = #isolation
  ) async -> Bool {
    guard let isolation, isolation !== MainActor.shared else {
      return await executor.whenIdle(drive: drive, patience: patience)
    }
    return await executor.whenIdleAwayFromActor(drive: drive, patience: patience)
  }

  /// Reports what reached the scope from outside it since the last report, each at the async form
  /// that could not wait for it (or at `fallback`).
  @available(EffectsVirtualTime, *)
  func reportEscapes(of executor: VirtualExecutor, at fallback: FailureLocation) {
    reportReplacedHooks(of: executor, at: fallback)
    if let stall = executor.takeStall(), let first = stall.first {
      reportStall(first, times: stall.times, awaitedAt: stall.awaitedAt, at: fallback)
    }
    // One issue per kind of escape and line, however often it happened.
    var seen: Set<String> = []
    for escape in executor.takeEscapes() {
      // A real sleep names the line that slept, when the sleeping task's calls could be read.
      let slept = escape.sleptAt.isEmpty ? nil : ReadSite.firstFrameOfCodeUnderTest(inResumePoints: escape.sleptAt)
      if escape.byDriver, let slept {
        // The test's own wait: time passes in a virtual-time test when the test moves it.
        guard seen.insert("\(escape.description) at \(slept)").inserted else { continue }
        slept.report(
          VirtualTimeWording.testStartedARealWait(wait: escape.realWait),
          kind: .realWaitInTest
        )
        continue
      }
      let site = escape.during.map(FailureLocation.init) ?? fallback
      let description = slept.map { "\(escape.description), at \($0)" } ?? escape.description
      guard seen.insert("\(description) at \(site)").inserted else { continue }
      site.report(
        VirtualTimeWording.workResumedFromOutside(description: description),
        kind: .inexactTime
      )
    }
  }

  /// Reports a test found waiting while every task of its scope slept on virtual time, at the line
  /// where it waited (found on its task as it went on), else at `fallback`.
  @available(EffectsVirtualTime, *)
  func reportStall(
    _ first: VirtualExecutor.MovedForStall,
    times: Int,
    awaitedAt: [UInt],
    at fallback: FailureLocation
  ) {
    let place = ReadSite.firstFrameOfCodeUnderTest(inResumePoints: awaitedAt) ?? fallback
    let site = ReadSite.firstFrameOfCodeUnderTest(inResumePoints: first.sleptAt)?.description ?? "\(first.queuedAt)"
    let limit = LaneWatchdog.waitingLimit.literal
    place.report(
      first.cancelled
        ? VirtualTimeWording.cancelledSleepersUntilTheEnd(limit: limit, count: first.count, site: site, times: times)
        : VirtualTimeWording.movedTimeForAWaitingTest(
          limit: limit,
          count: first.count,
          site: site,
          to: first.to.literal,
          times: times
        ),
      kind: .waitedOnVirtualTime
    )
  }

  /// Reports, once a scope, hooks of the scope that another library replaced while it was open:
  /// the scope's jobs no longer reach it from then on.
  @available(EffectsVirtualTime, *)
  func reportReplacedHooks(of executor: VirtualExecutor, at site: FailureLocation) {
    let replaced = RuntimeHooks.replacedWhileOpen()
    guard !replaced.isEmpty, executor.claimReport(of: "replaced hooks") else { return }
    site.report(VirtualTimeWording.replacedHooks(replaced), kind: .inexactTime)
  }
}

// The drain: how the synchronous and awaited forms of `advance` and `run` move virtual
// time. One loop takes the next due entry (timer or sleeper) up to the target, runs it with `now`
// at its deadline, and stops at the target, at `maxRuns`, or when another call holds the
// scheduler. The awaited forms (`drive`, above) settle the scope between entries.

extension TestScheduler {
  /// The end of a window `duration` long, at most where virtual time ends (``TimerQueue/never``),
  /// or nil (reported, naming `operation`) when `duration` is negative.
  func target(advancingBy duration: Duration, at caller: CallSite, operation: String) -> Duration? {
    guard duration >= .zero else {
      reportIssue(
        VirtualTimeWording.negativeAdvance(operation: operation, duration: duration.literal),
        kind: .invalidArgument,
        at: caller
      )
      return nil
    }
    return TimerQueue.deadline(elapsed, plus: duration)
  }

  /// `instant`, at most where virtual time ends (``TimerQueue/never``), or nil (reported, naming
  /// `operation`) when it is before the current instant.
  func target(advancingTo instant: Duration, at caller: CallSite, operation: String) -> Duration? {
    let current = elapsed
    guard instant >= current else {
      reportIssue(
        VirtualTimeWording.advanceToThePast(operation: operation, instant: instant.literal, current: current.literal),
        kind: .invalidArgument,
        at: caller
      )
      return nil
    }
    return min(instant, TimerQueue.never)
  }

  /// `maxRuns`, or `kept` when it is below 1 — reported through `report`, the message starting with
  /// `what` (`TestScheduler(maxRuns:) got`). Zero would still run one action, and a negative count
  /// means nothing.
  static func checkedMaxRuns(_ maxRuns: Int, keeping kept: Int, in what: String, report: (String) -> Void) -> Int {
    guard maxRuns < 1 else { return maxRuns }
    report(
      VirtualTimeWording.invalidMaxRuns(what: what, maxRuns: maxRuns, kept: kept)
    )
    return kept
  }

  /// How far a call runs work.
  enum Goal {
    /// Up to this offset from ``start``.
    case time(Duration)
    /// Until nothing is pending.
    case untilNothingIsPending

    var target: Duration? {
      if case .time(let target) = self { return target }
      return nil
    }
  }

  /// Runs work toward `goal`, worked out once this call holds the scheduler (nil: bad input,
  /// already reported), so that a call from another thread at the same time moves time from where
  /// this one left it, or is reported: no advance is lost. False when the call did nothing, or was
  /// stopped by ``maxRuns``.
  @discardableResult
  func drain(
    caller: CallSite,
    operation: String,
    cannotWait: VirtualTimeWording.CannotWait = .synchronousForm,
    to goal: () -> Goal?
  ) -> Bool {
    guard beginDriving(operation, at: caller) else { return false }
    guard let goal = goal() else {
      endDriving()
      return false
    }
    var drain = Drain(
      until: goal.target,
      limit: maxRuns,
      caller: caller,
      operation: operation,
      cannotWait: cannotWait
    )
    while drain.runNext(self), !drain.reachedLimit(self) {}
    return drain.finish(self)
  }

  /// One run of work toward a target: the loop the synchronous and the asynchronous forms share.
  /// Each turn runs one piece of work, then checks the ``TestScheduler/maxRuns`` limit; the
  /// asynchronous form settles the scope's tasks in between, so that a task woken by the piece
  /// has scheduled its next sleep before the limit looks for work still due.
  struct Drain {
    let target: Duration?
    let limit: Int
    let caller: CallSite
    let operation: String
    /// Why the caller cannot wait for the tasks it resumes — nil for the `await` form in its scope,
    /// which can — as the message says it: `"the synchronous form cannot wait for"`.
    let cannotWait: VirtualTimeWording.CannotWait?
    private var runs = 0
    private var stopped = false
    /// Whether the last ``runNext(_:)`` found nothing due, and so moved time to the target and
    /// ended the drive in the same lock.
    private var ended = false
    /// How many tasks were resumed without waiting, and where they went to sleep (each line once).
    private var unwaited = (count: 0, sites: [String]())
    private var offLaneSleepers = (count: 0, sites: [String]())

    init(
      until target: Duration?,
      limit: Int,
      caller: CallSite,
      operation: String,
      cannotWait: VirtualTimeWording.CannotWait?
    ) {
      self.target = target
      self.limit = limit
      self.caller = caller
      self.operation = operation
      self.cannotWait = cannotWait
    }

    /// Runs the next piece of work due before the target; false when nothing more is due.
    mutating func runNext(_ scheduler: TestScheduler) -> Bool {
      switch scheduler.runNext(until: target, orEndDriving: true, locatingSleepers: cannotWait != nil) {
      case .nothing:
        ended = true
        return false
      case .action:
        break
      case .sleeper(let callSite, let located, let offLane):
        // Spelled only for a report: an `await advance` resumes sleepers without a `String` each
        // (the benchmark `sleepers-tasks.1e3.effects` counted one more allocation per sleeper).
        if cannotWait != nil {
          let site = located?.description ?? callSite.description
          unwaited.count += 1
          if !unwaited.sites.contains(site) { unwaited.sites.append(site) }
        } else if offLane {
          let site = located?.description ?? callSite.description
          offLaneSleepers.count += 1
          if !offLaneSleepers.sites.contains(site) { offLaneSleepers.sites.append(site) }
        }
      }
      runs += 1
      return true
    }

    /// Whether the run has reached the limit with work still due — reported at the caller, naming
    /// the line that scheduled that work.
    mutating func reachedLimit(_ scheduler: TestScheduler) -> Bool {
      guard runs >= limit, let runaway = scheduler.nextDue(before: target) else { return false }
      scheduler.reportRunaway(runaway, runs: runs, caller: caller, operation: operation)
      stopped = true
      return true
    }

    /// Ends the drive: time is at the target unless the limit stopped the run (false then), and
    /// the scheduler is free for the next call. Reports the tasks it resumed but could not wait
    /// for. Call it once, on every path, after ``TestScheduler/beginDriving(_:at:)`` succeeded.
    @discardableResult
    func finish(_ scheduler: TestScheduler) -> Bool {
      if !ended { scheduler.endDriving() }
      if let cannotWait, unwaited.count > 0 {
        scheduler.reportUnwaited(
          unwaited.count,
          since: unwaited.sites,
          operation: operation,
          cannotWait: cannotWait,
          caller: caller
        )
      }
      if offLaneSleepers.count > 0 {
        scheduler.reportOffLane(
          offLaneSleepers.count,
          since: offLaneSleepers.sites,
          operation: operation,
          caller: caller
        )
      }
      return !stopped
    }
  }

  /// Marks `operation` at `caller` as the call running work; false (reported) when another one
  /// is running already — `operation` was called from inside work it runs (an action, a task it
  /// resumed), or from another thread at the same time.
  func beginDriving(_ operation: String, at caller: CallSite) -> Bool {
    let running = state.withLock { state -> (operation: String, site: CallSite)? in
      if let running = state.driving { return running }
      state.driving = (operation, caller)
      return nil
    }
    guard let running else { return true }
    reportIssue(
      VirtualTimeWording.nestedAdvance(operation: operation, running: running.operation, site: running.site),
      kind: .reentrantDrive,
      at: caller
    )
    return false
  }

  /// Ends ``beginDriving(_:at:)``.
  func endDriving() {
    state.withLock { $0.driving = nil }
  }

  /// What ``runNext(until:orEndDriving:)`` ran.
  enum Ran {
    /// Nothing was due.
    case nothing
    /// A scheduled action, which has returned.
    case action
    /// A sleeping task, resumed: it runs on when its executor gets to it. The site is where it
    /// went to sleep; `located`: the line of the code under test that slept, when the site names
    /// none (a sleep on `environment.continuousClock`) and it was asked for; `offLane`: it slept
    /// off the scope's lanes, where no wait can see it.
    case sleeper(CallSite, located: FailureLocation?, offLane: Bool)
  }

  /// Work taken off the queue to run, with what its sleeper's slot said of it: an enum whose
  /// action case holds nothing but the closure. (A struct of the work and the sleeper's fields,
  /// optional, was copied and destroyed twice a callback through the runtime's generic value
  /// witnesses: 690 of 2,847 instructions a callback in `callbacks.1e4.effects`.)
  private enum Due {
    case nothing
    case action(@Sendable () -> Void)
    case sleeper(UnsafeContinuation<Void, any Error>, sleptAt: CallSite?, offLane: Bool, onMainActor: Bool)
  }

  /// Runs the earliest work due by `target` (any, when nil), at its deadline. When nothing is due
  /// and `orEndDriving`, it moves time to `target` and ends the drive in the same lock: the last
  /// turn of every `advance` costs one lock, not three.
  ///
  /// `locatingSleepers`: find the line that slept for a sleeper whose site names none (see
  /// ``TestScheduler/awaitSite(of:)``), as the report that will say it needs; a sleeper off the
  /// scope's lanes is always located, since it is always reported.
  func runNext(until target: Duration?, orEndDriving: Bool = false, locatingSleepers: Bool = false) -> Ran {
    let next: Due = state.withLock { state in
      guard let (id, deadline, work) = state.queue.popEarliest(dueBy: target) else {
        if orEndDriving {
          if let target { state.elapsed = max(state.elapsed, target) }
          state.driving = nil
        }
        return .nothing
      }
      if deadline > state.elapsed { state.elapsed = deadline }
      switch work {
      case .once(let action), .repeating(_, let action):
        return .action(action)
      case .sleep(let continuation, let index):
        let woken = state.wakeSleeper(at: index, id: id)
        return .sleeper(continuation, sleptAt: woken.sleptAt, offLane: woken.offLane, onMainActor: woken.onMainActor)
      }
    }
    switch consume next {
    case .nothing:
      return .nothing
    case .action(let action):
      action()
      return .action
    case .sleeper(let continuation, let sleptAt, let offLane, let onMainActor):
      let site = sleptAt ?? CallSite()
      // Before the resumption: the sleeping task's chain of calls is as it slept only until then.
      var located: FailureLocation?
      if locatingSleepers || offLane, Self.namesNoLine(site, scope: state.withLock { $0.scope?.site }) {
        located = Self.awaitSite(of: continuation)
      }
      if onMainActor, #available(EffectsVirtualTime , *) {
        VirtualExecutor.resumingOnMainActor { continuation.resume() }
      } else {
        continuation.resume()
      }
      return .sleeper(site, located: located, offLane: offLane)
    }
  }

  func nextDue(before target: Duration?) -> TimerQueue.Entry? {
    state.withLock { state in
      guard let deadline = state.queue.nextDeadline() else { return nil }
      if let target, deadline > target { return nil }
      return state.queue.entries.filter { $0.deadline == deadline }.min { $0.sequence < $1.sequence }
    }
  }

  /// Says that `operation` resumed sleeping tasks it cannot wait for: what they do next happens
  /// when their executor gets to them, a moment that depends on real time.
  func reportUnwaited(
    _ count: Int,
    since sites: [String],
    operation: String,
    cannotWait: VirtualTimeWording.CannotWait,
    caller: CallSite
  ) {
    reportIssue(
      VirtualTimeWording.unwaitedSleepers(operation: operation, count: count, since: sites, cannotWait: cannotWait),
      kind: .inexactTime,
      at: caller
    )
  }

  /// Says that `operation` resumed sleeping tasks that run off the scope's lanes, and returned
  /// without waiting for them.
  func reportOffLane(_ count: Int, since sites: [String], operation: String, caller: CallSite) {
    reportIssue(
      VirtualTimeWording.offLaneSleepers(operation: operation, count: count, sites: sites),
      kind: .inexactTime,
      at: caller
    )
  }

  func reportRunaway(_ entry: TimerQueue.Entry, runs: Int, caller: CallSite, operation: String) {
    reportIssue(
      VirtualTimeWording.runaway(
        operation: operation,
        caller: caller,
        runs: runs,
        work: entry.work,
        site: entry.callSite
      ),
      kind: .busyScope,
      at: entry.callSite
    )
  }
}
