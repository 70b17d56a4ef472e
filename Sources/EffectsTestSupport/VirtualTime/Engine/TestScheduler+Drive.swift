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
      drain(caller: caller, operation: operation, cannotWait: "outside withVirtualTime it cannot wait for", to: goal)
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
        """
        \(operation) was cancelled while it waited for the tasks of the scope (the test's time limit?), and \
        returns without waiting for them. Tasks that never all suspend keep a scope busy: a loop of Task.yield() \
        polling for something, or a job that does not return.
        """,
        kind: .busyScope,
        at: caller
      )
      return false
    }
    guard patience.busyLooks > VirtualExecutor.Patience.advanceAfterGivingUp.busyLooks else { return true }
    reportIssue(
      """
      \(operation) stopped waiting for the tasks of the scope: they kept running, \(patience.busyJobs) jobs or more \
      in each of \(patience.busyLooks) spans of \(patience.interval.literal), without ever all suspending — a loop \
      of Task.yield() polling for something, such as work this call would run? It goes on without waiting for \
      them, so what the test sees after this line may depend on timing. Let the loop await what it polls for \
      (sleep on the scheduler, or await a stream or a continuation) instead of yielding.
      """,
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
        """
        \(operation) was called inside a withVirtualTime scope of another \
        TestScheduler\(own.map { "; this one's scope is open at \($0.site)" } ?? ", and this one has no scope open"). \
        Advance the scheduler whose scope the code runs in: one scheduler per test, shared by every \
        environment it builds.
        """,
        kind: .wrongScheduler,
        at: caller
      )
      return executor
    }
    if let executor = VirtualExecutor.scope {
      reportIssue(
        """
        \(operation) was called by a task that outlived its withVirtualTime scope, \
        so it cannot wait for the tasks it wakes. Await the task before the scope ends, or cancel it.
        """,
        kind: .wrongScheduler,
        at: caller
      )
      _ = executor
      return nil
    }
    if let own {
      reportIssue(
        """
        \(operation) was called outside this scheduler's withVirtualTime scope \
        (open at \(own.site)), by a task that is not part of it (a task that outlived another \
        scope, or one started by code outside the test), so it cannot wait for the tasks it wakes. \
        Advance from the test body inside the scope.
        """,
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
          """
          The test itself started \(escape.realWait) here (Task.sleep or a real clock's sleep). In a \
          virtual-time test, time passes only when the test moves it: a real wait only makes the test slower, \
          and what it sees depend on the machine. To let time pass, advance instead: await \
          TestScheduler.current.advance(by:) (scheduler.advance(by:) in withVirtualTime).
          """,
          kind: .realWaitInTest
        )
        continue
      }
      let site = escape.during.map(FailureLocation.init) ?? fallback
      let description = slept.map { "\(escape.description), at \($0)" } ?? escape.description
      guard seen.insert("\(description) at \(site)").inserted else { continue }
      site.report(
        """
        TestScheduler could not keep virtual time exact here: \(description). Work resumed \
        from outside the scope arrives at a moment that depends on real time, so what the test saw \
        after this line may change from run to run. Sleep on the scheduler (environment.scheduler, \
        environment.continuousClock) and replace real I/O with a test double.
        """,
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
    let tasks = first.count == 1 ? "a task" : "\(first.count) tasks"
    let more = times == 1 ? "" : ", and \(times - 1) more \(times == 2 ? "time" : "times") as the wait went on"
    let limit = LaneWatchdog.waitingLimit
    guard !first.cancelled else {
      let (them, each) = first.count == 1 ? ("that task", "its sleep") : ("those tasks", "each sleep")
      place.report(
        """
        The test waited here, and for \(limit.literal) of real time nothing in its scope ran while \(tasks) slept \
        until the end of virtual time (at \(site)), which never comes: no advance reaches it, so the test would \
        have waited for ever. The scope cancelled \(them) (\(each) threw CancellationError)\(more), and the test \
        went on. Cancel a task that sleeps until it is cancelled before the test awaits it.
        """,
        kind: .waitedOnVirtualTime
      )
      return
    }
    let asleep = "\(tasks) slept on virtual time until \(first.to.literal) from the scope's start (at \(site))"
    place.report(
      """
      The test waited here, and for \(limit.literal) of real time nothing in its scope ran while \(asleep). \
      Only the test moves a TestScheduler: waiting for that, it would have waited for ever, so \
      the scope moved time to \(first.to.literal) itself\(more), and the test went on. Move time before the wait: \
      await scheduler.advance(by:) (or run()) first, then await the task. (Waiting for something outside the \
      scope instead, real I/O or a detached task, looks the same to the scope: keep that out of a virtual-time \
      test.)
      """,
      kind: .waitedOnVirtualTime
    )
  }

  /// Reports, once a scope, hooks of the scope that another library replaced while it was open:
  /// the scope's jobs no longer reach it from then on.
  @available(EffectsVirtualTime, *)
  func reportReplacedHooks(of executor: VirtualExecutor, at site: FailureLocation) {
    let replaced = RuntimeHooks.replacedWhileOpen()
    guard !replaced.isEmpty, executor.claimReport(of: "replaced hooks") else { return }
    site.report(
      "TestScheduler could not keep virtual time exact here: \(VirtualTimeAvailability.replaced(replaced)).",
      kind: .inexactTime
    )
  }
}
