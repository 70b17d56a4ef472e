import Dispatch
import Effects

// The life of a virtual-time scope, in the order it happens: opened (by `@Test(.virtualTime)`,
// `withVirtualTime { scheduler in … }` or `scheduler.withVirtualTime { … }`, which all come here),
// run, then ended — its leftovers reported and cancelled, its tasks let go. What the scope's
// executor does meanwhile is in `VirtualExecutor.swift` (and its `+Ownership` file); how an awaited
// advance waits for it, in `TestScheduler+Advance.swift`. The whole path: Documentation/Engine.md.

extension TestScheduler {

  /// The body of ``withVirtualTime(leftoverWork:isolation:fileID:filePath:line:column:_:)``, whose
  /// issues about the scope as a whole are reported at `scopeSite`.
  func withScope<R, Failure: Error>(
    at scopeSite: FailureLocation,
    leftoverWork: LeftoverWork,
    schedule: Locked<ScheduleChooser?>? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws(Failure) -> R
  ) async throws(Failure) -> R {
    guard #available(EffectsVirtualTime , *) else {
      scopeSite.report(VirtualTimeAvailability.operatingSystemTooOld, kind: .virtualTimeUnavailable)
      return try await operation()
    }
    // The runtime door's self-test: once per process, at the first scope (again under a test's
    // forced conditions). What stops a scope is said at its line; what degrades, once.
    let driver = ScopeTasks.currentTaskJob
    let findings = await RuntimeDoor.findings(driver: driver)
    if let report = RuntimeDoor.forced?.runtimeUnavailable.map(VirtualTimeAvailability.runtimeUnavailable)
      ?? findings.cannotOpen
    {
      scopeSite.report(report, kind: .virtualTimeUnavailable)
      return try await operation()
    }
    switch RuntimeHooks.retain() {
    case .success: break
    case .failure(.unavailable(let reason)):
      scopeSite.report(VirtualTimeAvailability.runtimeUnavailable(reason), kind: .virtualTimeUnavailable)
      return try await operation()
    case .failure(.heldByAnotherLibrary(let hooks)):
      scopeSite.report(VirtualTimeAvailability.heldByAnotherLibrary(hooks), kind: .virtualTimeUnavailable)
      return try await operation()
    }
    // Checked and claimed in one step, so that two scopes opening at once cannot both win.
    let open = state.withLock { state -> (executor: AnyObject?, site: FailureLocation)? in
      if let open = state.scope { return open }
      state.scope = (nil, scopeSite)
      return nil
    }
    if let open {
      RuntimeHooks.release()
      scopeSite.report(
        VirtualTimeWording.scopeAlreadyOpen(site: open.site),
        kind: .nestedScope
      )
      // Inside the open scope (nested), its executor is already the task's; a scope still
      // opening elsewhere has none to join yet.
      let joined = open.executor.map { unsafeDowncast($0, to: VirtualExecutor.self) } ?? VirtualExecutor.scope
      let result: Result<R, Failure> = await VirtualExecutor.$scope.withValue(joined) {
        do throws(Failure) {
          return .success(try await operation())
        } catch {
          return .failure(error)
        }
      }
      return try result.get()
    }
    // Under exploration, `schedule` holds the chooser going in and what it chose coming out; it
    // stays nil when no scope opened (nothing was explored).
    let executor = VirtualExecutor(
      driver: driver.map(ScopeTasks.address(of:)),
      driverPrefersLane: isolation == nil,
      chooser: schedule?.withLock { chooser in
        defer { chooser = nil }
        return chooser
      }
    )
    if findings.broken.contains(.taskStatus) {
      VirtualTimeAvailability.warnOnce(
        VirtualTimeAvailability.taskStatusUnreadable,
        kind: .virtualTimeUnavailable,
        at: scopeSite
      )
    }
    if let degraded = findings.degraded {
      VirtualTimeAvailability.warnOnce(degraded, kind: .virtualTimeUnavailable, at: scopeSite)
    }
    if let driver { executor.adoptDriver(driver) }
    if RuntimeDoor.realSleepsGoUnseen {
      VirtualTimeAvailability.warnOnce(
        VirtualTimeAvailability.realSleepsUnseen,
        kind: .virtualTimeUnavailable,
        at: scopeSite
      )
    }
    state.withLock { $0.scope = (executor, scopeSite) }
    executor.whenStalled(move: self)
    let result: Result<R, Failure> = await VirtualExecutor.$scope.withValue(executor) {
      if isolation === MainActor.shared {
        // Move the test itself onto the scope's main lane, so that its own wake-ups are
        // counted and run in turn with the main-actor work it waits for.
        await MainLane.shared.enter()
      } else if isolation == nil {
        // Run a nonisolated test on the scope's serial lane from its first line, not from its
        // first suspension: what it does first (a real sleep, say) is then the scope's, and seen.
        return await withTaskExecutorPreference(executor) {
          await run(operation, thenEnd: executor, at: scopeSite, leftoverWork: leftoverWork)
        }
      }
      return await run(operation, thenEnd: executor, at: scopeSite, leftoverWork: leftoverWork)
    }
    state.withLock { $0.scope = nil }
    reportReplacedHooks(of: executor, at: scopeSite)
    executor.close()
    if let schedule { schedule.withLock { $0 = executor.exploredSchedule } }
    RuntimeHooks.release()
    reportEscapes(of: executor, at: scopeSite)
    return try result.get()
  }

  /// Runs the scope's operation, then ends the scope.
  @available(EffectsVirtualTime, *)
  private func run<R, Failure: Error>(
    _ operation: () async throws(Failure) -> R,
    thenEnd executor: VirtualExecutor,
    at scopeSite: FailureLocation,
    leftoverWork: LeftoverWork,
    isolation: isolated (any Actor)? = #isolation
  ) async -> Result<R, Failure> {
    let result: Result<R, Failure>
    do throws(Failure) {
      result = .success(try await operation())
    } catch {
      result = .failure(error)
    }
    await endScope(executor, at: scopeSite, leftoverWork: leftoverWork)
    let checks = state.withLock { state in
      defer { state.scopeEndChecks = [] }
      return state.scopeEndChecks
    }
    for check in checks { check() }
    return result
  }
}

extension TestScheduler {
  /// Runs `body` as a test's own scope on this scheduler: ``TestScheduler/current``, and
  /// `Environment.current`'s `scheduler` and `clock`, for the time of a virtual-time scope. The
  /// body of `@Test(.virtualTime)`, ``withVirtualTime(now:leftoverWork:isolation:fileID:filePath:line:column:_:)``
  /// and ``TestScheduler/withVirtualTime(leftoverWork:isolation:fileID:filePath:line:column:_:)``:
  /// one kind of scope.
  ///
  /// Inside another open scope (of another scheduler) it opens none: a nested scope would count
  /// the test's own work in both, and neither could wait for it (a `@MainActor` test hung). It
  /// says so at `site`, and runs `body` in the open scope: on that scope's scheduler when this
  /// one is `fresh` (made for this call, which nothing else holds), else on this one, unscoped.
  /// A trait's scope inside a trait's (`@Suite(.virtualTime)` and `@Test(.virtualTime)`) joins
  /// the outer one without a word.
  func withTestScope<R, Failure: Error>(
    at site: FailureLocation,
    origin: String,
    leftoverWork: LeftoverWork,
    fresh: Bool = true,
    schedule: Locked<ScheduleChooser?>? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (TestScheduler) async throws(Failure) -> R
  ) async throws(Failure) -> R {
    if let outer = Self.scoped, outer !== self, let outerSite = outer.state.withLock({ $0.scope?.site }) {
      if site.callSite != nil || outerSite.callSite != nil {
        site.report(VirtualTimeWording.nestedScope(outer: outerSite, fresh: fresh), kind: .nestedScope)
      }
      return try await body(fresh ? outer : self)
    }
    // Safe by default: with no environment set for the test, the scope's is a test environment
    // on this scheduler, never the live root with only its clock replaced. An environment the
    // test set is moved onto this scheduler for the scope's time only: its network goes back to
    // the scheduler it had (a scope nested in the test's, on a scheduler of its own).
    var environment: Environment
    var giveBack: @Sendable () -> Void = {}
    if let scoped = Environment.scoped {
      environment = scoped
      giveBack = environment.useVirtualTime(of: self)
    } else {
      environment = Environment.test(scheduler: self, origin: origin, callSite: site.callSite)
    }
    defer { giveBack() }
    let result: Result<R, Failure> = await Self.$scoped.withValue(self) {
      await withEnvironment(environment, isolation: isolation) {
        await withScope(at: site, leftoverWork: leftoverWork, schedule: schedule, isolation: isolation) {
          // On the caller's actor, as every closure here: one that captured no isolated
          // parameter would run nonisolated, a hop off the main actor and back for every scope.
          () async -> Result<R, Failure> in
          _ = isolation
          do throws(Failure) {
            return .success(try await body(self))
          } catch {
            return .failure(error)
          }
        }
      }
    }
    return try result.get()
  }
}

extension TestScheduler {
  /// Runs `check` when the scope open on this scheduler ends, after its leftover work is reported
  /// (a scope nested in another runs it when the outer one ends).
  func atScopeEnd(_ check: @escaping @Sendable () -> Void) {
    state.withLock { $0.scopeEndChecks.append(check) }
  }

  /// Runs `check` when the operation of the scope open on this scheduler has returned and its
  /// tasks have settled, before its leftover work is read; `check` answers whether it cancelled
  /// something (the scope then lets it settle first). Only when leftover work is reported.
  func whenScopeEnds(_ check: @escaping @Sendable (_ scope: FailureLocation) -> Bool) {
    state.withLock { $0.scopeEndingChecks.append(check) }
  }
}

@available(EffectsVirtualTime, *)
extension TestScheduler {
  /// How long the end of a scope waits, in real time, for cancelled tasks suspended outside it to
  /// end (five times longer under the thread sanitizer, which slows every thread down). A passing
  /// test never waits: its tasks have ended, and nothing is cancelled. Waiting for the scope's own
  /// tasks to settle is judged by what they do instead (``VirtualExecutor/Patience/scopeEnd``), so
  /// a busy machine never makes a passing test fail.
  static let scopeEndGrace: Duration = .milliseconds(LaneWatchdog.isSanitized ? 1_250 : 250)

  /// ``scopeEndGrace`` from now.
  private static func graceDeadline() -> DispatchTime {
    .now() + .milliseconds(Int(scopeEndGrace / .milliseconds(1)))
  }

  /// Ends a scope exhaustively: work still scheduled, sleepers never resumed, and tasks of the
  /// scope still suspended on anything else are reported, then cancelled; a task that does not end
  /// after cancellation is reported, and the scope returns anyway. When the test expects
  /// leftovers, they are left as they are.
  func endScope(
    _ executor: VirtualExecutor,
    at scope: FailureLocation,
    leftoverWork: LeftoverWork,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    // Tasks started last reach their first suspension (a sleep, say) before anything is read.
    var settled = await settle(executor, drive: nil, patience: .scopeEnd)
    // The results of the tasks that have ended are freed now, inside the scope: what their
    // `deinit`s start is the scope's, waited for and reported like the rest.
    if settled, executor.releaseEndedTasks() {
      settled = await settle(executor, drive: nil, patience: .scopeEnd)
    }
    let ending = state.withLock { state in
      defer { state.scopeEndingChecks = [] }
      return state.scopeEndingChecks
    }
    guard leftoverWork == .reported else { return }
    // What reports itself (an observer still consuming) stops first, with what it started.
    if settled, ending.map({ $0(scope) }).contains(true) {
      settled = await settle(executor, drive: nil, patience: .scopeEnd)
    }
    let leftovers = removeAllWork()
    guard settled else {
      // Tasks that never all suspend: report that, and cancel what can be cancelled, so that
      // they stop rather than spin on after the test.
      reportStillRunning(at: scope)
      for sleeper in leftovers.sleepers {
        sleeper.resume(throwing: CancellationError())
      }
      for task in executor.unfinishedTasks() ?? [] {
        _ = ScopeTasks.cancel(task.address)
      }
      return
    }
    reportLeftovers(leftovers.entries, at: scope)
    for sleeper in leftovers.sleepers {
      sleeper.resume(throwing: CancellationError())
    }
    guard await settle(executor, drive: nil, patience: .scopeEnd) else {
      reportStillRunning(at: scope)
      return
    }
    await cancelUnfinishedTasks(of: executor, at: scope, deadline: Self.graceDeadline())
    // What cancelled tasks scheduled on their way out goes too (a sleeper is told it is cancelled).
    for sleeper in removeAllWork().sleepers {
      sleeper.resume(throwing: CancellationError())
    }
  }

  /// Empties the queue, returning what it held.
  private func removeAllWork() -> (entries: [TimerQueue.Entry], sleepers: [UnsafeContinuation<Void, any Error>]) {
    state.withLock { $0.removeAll() }
  }

  /// Cancels the tasks of the scope that have not ended, waits up to `deadline` for them to end,
  /// and reports them.
  private func cancelUnfinishedTasks(
    of executor: VirtualExecutor,
    at scope: FailureLocation,
    deadline: DispatchTime,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    guard let unfinished = executor.unfinishedTasks(), !unfinished.isEmpty else { return }
    for task in unfinished {
      // The runtime not showing the task cancelled means its layout is not the one this code
      // knows: then nothing it reads of a task's status can be trusted, so nothing is reported.
      guard ScopeTasks.cancel(task.address) else { return }
    }
    var stuck = unfinished
    while true {
      // A scope found busy (a cleanup that starts thousands of tasks) is no reason to stop
      // looking: what is stuck is read from the tasks themselves, never assumed, so a task that
      // ended is never reported as one that did not.
      _ = await settle(executor, drive: nil, patience: .scopeEnd)
      stuck = stuck.filter { ScopeTasks.hasEnded($0.address) == false }
      if stuck.isEmpty || DispatchTime.now() >= deadline { break }
      // A cancelled task may end through work outside the scope (a real sleep's cancellation,
      // I/O): give it a moment of real time.
      await pause(.milliseconds(5))
    }
    let stuckAddresses = Set(stuck.map(\.address))
    // One issue per task, at the line that started it: sorted by that place, then by the order
    // the tasks were made, so a test reports the same issues in the same order on every run.
    let placed = unfinished.map { (task: $0, origin: executor.origin(of: $0)) }.sorted { first, second in
      let (one, other) = (first.origin ?? scope, second.origin ?? scope)
      if one.precedes(other) { return true }
      if other.precedes(one) { return false }
      return first.task.id < second.task.id
    }
    for (task, origin) in placed {
      (origin ?? scope).report(
        VirtualTimeWording.taskLeftSuspended(
          scope: scope,
          startedHere: origin != nil,
          stuckFor: stuckAddresses.contains(task.address) ? Self.scopeEndGrace.literal : nil
        ),
        kind: .leftoverWork
      )
    }
  }

  /// Reports each leftover piece of work at the line that scheduled it, one issue per line: a
  /// sleep on a clock that names no line (`environment.continuousClock`) at the line of the code
  /// under test that awaited it, found on the sleeping task (Linux); else at the scope.
  private func reportLeftovers(_ entries: [TimerQueue.Entry], at scope: FailureLocation) {
    let now = elapsed
    let sorted = entries.sorted { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
    // Each piece of work, with the place it is reported at: nil for the scope.
    var order: [String] = []
    var groups: [String: (place: FailureLocation?, located: Bool, entries: [TimerQueue.Entry])] = [:]
    for entry in sorted {
      var place: FailureLocation? = FailureLocation(entry.callSite)
      var located = false
      if Self.namesNoLine(entry.callSite, scope: scope) {
        place = nil
        if case .sleep(let continuation, _) = entry.work, let site = Self.awaitSite(of: continuation) {
          place = site
          located = true
        }
      }
      let key = place.map { "\($0.filePath):\($0.line):\($0.column)" } ?? ""
      if groups[key] == nil {
        order.append(key)
        groups[key] = (place, located, [])
      }
      groups[key]?.entries.append(entry)
    }
    for key in order {
      guard let group = groups[key], let first = group.entries.first else { continue }
      let leftover: VirtualTimeWording.Leftover =
        switch first.work {
        case .sleep: .sleep(located: group.located)
        case .once: .work
        case .repeating(let interval, _): .repeating(every: interval.literal)
        }
      (group.place ?? scope).report(
        VirtualTimeWording.leftoverPending(
          scope: scope,
          leftover,
          deadlines: group.entries.map(\.deadline),
          placed: group.place != nil,
          now: now.literal
        ),
        kind: .leftoverWork
      )
    }
  }

  /// Reports tasks of the scope that kept running after its operation returned (see
  /// ``VirtualExecutor/Patience/scopeEnd``).
  private func reportStillRunning(at scope: FailureLocation) {
    let patience = VirtualExecutor.Patience.scopeEnd
    let limit = patience.limit ?? .zero
    scope.report(
      VirtualTimeWording.busyAtTheEnd(
        busyJobs: patience.busyJobs,
        interval: patience.interval.literal,
        limit: limit.literal
      ),
      kind: .busyScope
    )
  }

  /// Suspends for `duration` of real time, without a `Task.sleep` (which the scope would report).
  private func pause(_ duration: Duration, isolation: isolated (any Actor)? = #isolation) async {
    await withCheckedContinuation(isolation: isolation) { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().asyncAfter(
        deadline: .now() + .milliseconds(Int(duration / .milliseconds(1)))
      ) {
        continuation.resume()
      }
    }
  }
}

extension TestScheduler {
  /// The scheduler of the virtual-time scope open on this task: `@Test(.virtualTime)`,
  /// ``withVirtualTime(now:leftoverWork:isolation:fileID:filePath:line:column:_:)`` or
  /// ``withVirtualTime(leftoverWork:isolation:fileID:filePath:line:column:_:)``.
  @TaskLocal static var scoped: TestScheduler?

  /// Whether the current task carries a virtual-time scope's executor as a task-local (every task
  /// started in a scope does; a detached one does not).
  static var carriesAScope: Bool {
    guard #available(EffectsVirtualTime , *) else { return false }
    return VirtualExecutor.scope != nil
  }

  static let outsideAScope = """
    TestScheduler.current was read outside a virtual-time scope, so there is no test scheduler \
    to answer; here is a new one that nothing else uses. Mark the test @Test(.virtualTime) (or \
    its suite @Suite(.virtualTime)), or wrap its body in withVirtualTime { scheduler in … }.
    """

  static let inADetachedTask = """
    TestScheduler.current was read in a task that a virtual-time scope runs but that does not carry \
    the scope (Task.detached inherits no task-local value), so there is no test scheduler to answer; \
    here is a new one that nothing else uses, and nothing advances it. Read TestScheduler.current \
    before detaching and pass the scheduler in, or start the task with Task { … }, which carries the \
    scope.
    """
}

extension TestScheduler {
  /// Whether a virtual-time scope is open on this scheduler.
  var hasOpenScope: Bool {
    state.withLock { $0.scope != nil }
  }
}

extension TestScheduler {
  /// Tells `observer` after each main-actor job of the scope open on this scheduler, until it
  /// closes; false when no scope with exact virtual time is open.
  func observeMainJobs(_ observer: any MainJobObserver) -> Bool {
    guard #available(EffectsVirtualTime , *),
      let executor = state.withLock({ $0.scope?.executor }) as? VirtualExecutor
    else { return false }
    return executor.observeMainJobs(observer)
  }

  /// The stack that started the task at `address`, when the open scope started it; empty if not.
  func originStack(ofTaskAt address: UInt) -> [UInt] {
    guard #available(EffectsVirtualTime , *),
      let executor = state.withLock({ $0.scope?.executor }) as? VirtualExecutor
    else { return [] }
    return executor.originStack(ofTaskAt: address)
  }
}
