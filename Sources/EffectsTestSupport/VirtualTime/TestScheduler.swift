public import Effects
public import Foundation

/// A virtual timeline that is both a `WorkScheduler` and a `WallClock`: time moves only when the
/// test says so, and work runs exactly when its deadline is reached.
///
/// App code schedules through the environment:
///
/// ```swift
/// @MainActor final class SearchModel {
///   private(set) var searches: [String] = []
///   private var pending: ScheduledWork?
///
///   func type(_ query: String, environment: Environment = .current) {
///     pending?.cancel()
///     pending = environment.scheduler.schedule(after: .milliseconds(300)) { @MainActor [weak self] in
///       self?.searches.append(query)
///     }
///   }
/// }
/// ```
///
/// and the test drives time by hand, asserting after every step:
///
/// ```swift
/// @MainActor @Test func searchesOnceTheUserStopsTyping() async {
///   let scheduler = TestScheduler()
///   let environment = Environment.test(scheduler: scheduler)
///   let model = SearchModel()
///   model.type("s", environment: environment)
///   await scheduler.advance(by: .milliseconds(100))
///   model.type("sw", environment: environment)
///   await scheduler.advance(by: .milliseconds(299))
///   #expect(model.searches == [])
///   await scheduler.advance(by: .milliseconds(1))
///   #expect(model.searches == ["sw"])
///   scheduler.assertNoPendingWork()
/// }
/// ```
///
/// Actions run synchronously on the thread that advances time (here the main actor's), so the
/// `@MainActor` callback runs there and then, at its deadline, just as it does under
/// `DispatchScheduler.main` in the app. (Advanced from another thread, a `@MainActor` callback is sent
/// on to the main actor as a task: the `await` forms in a virtual-time scope wait for it, a
/// `advanceSynchronously` does not.)
///
/// ## Rules
/// - Virtual time has one vocabulary: a `Duration` from the scheduler's ``start``. ``elapsed`` is
///   the current one, ``advanceSynchronously(to:fileID:filePath:line:column:)`` takes one, ``PendingWork/offset``
///   and the time since the start on the `continuousClock` are one, and messages write one as Swift code
///   (`.milliseconds(300)`). A `Date` appears only where the clock is read: ``now`` is
///   `start + elapsed`, converted when read. 100 ms + 200 ms is exactly the 300 ms instant.
/// - Work runs in order of deadline, then first scheduled first (FIFO) at the same instant.
/// - While an action runs, ``now`` and ``elapsed`` equal that action's own deadline.
/// - Work scheduled while advancing runs in the same call if its deadline falls inside the window.
/// - Cancelled work never runs and is no longer ``pending``.
/// - Repeating work runs at `delay`, `delay + interval`, `delay + 2 × interval`… (no drift).
/// - A call that runs more than ``maxRuns`` actions stops and reports an issue naming the line that
///   scheduled the work still due — an endless repeating timer under ``runSynchronously(fileID:filePath:line:column:)``
///   never hangs a test.
/// - Bad input — a negative delay or advance, a non-positive repeat interval, moving time
///   backwards, a ``maxRuns`` below 1 — is reported as a test issue at the line that passed it,
///   never a crash.
/// - Virtual time ends at `.seconds(Int64.max)`: a deadline at or past it is due never, and an
///   advance past it stops there (see ``advanceSynchronously(by:fileID:filePath:line:column:)``).
///
/// Any thread may schedule and cancel work (the state is behind a lock, and actions never run
/// while it is held); drive time (`advance`, `run`) from the test.
///
/// Storage is a radix heap keyed by (deadline, sequence): virtual time never goes back, so schedule,
/// cancel and run cost O(1) amortized: the cost per timer grows little from a thousand to a million.
public final class TestScheduler: WorkScheduler, WallClock, Sendable {
  /// The instant virtual time started at: ``now`` when ``elapsed`` is zero.
  public let start: Date

  let state: Locked<State>

  /// Creates a scheduler whose clock reads `now` and whose queue is empty.
  ///
  /// - Parameters:
  ///   - now: The starting instant (2001-01-01 00:00:00 UTC by default, so messages are stable).
  ///   - maxRuns: How many actions one call to `advance` or `run` may run before it stops
  ///     and reports runaway work: 1 or more. Less is reported at this call, and the default is kept.
  ///   - fileID: The file that made the scheduler: a `maxRuns` below 1 is reported at this call.
  ///   - filePath: The file's full path, which XCTest needs.
  ///   - line: The line that made the scheduler.
  ///   - column: The column of that call.
  public init(
    now: Date = Date(timeIntervalSinceReferenceDate: 0),
    maxRuns: Int = 100_000,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.start = now
    let callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let maxRuns = Self.checkedMaxRuns(maxRuns, keeping: 100_000, in: "TestScheduler(maxRuns:) got") {
      reportIssue($0, kind: .invalidArgument, at: callSite)
    }
    self.state = Locked(State(maxRuns: maxRuns))
  }

  deinit {
    // Nothing may outlive the scheduler: a leftover sleeper is resumed with CancellationError, so
    // no task stays suspended forever; dropped timers go with the queue.
    let leftovers = state.withLock { $0.removeAll() }
    for continuation in leftovers.sleepers {
      continuation.resume(throwing: CancellationError())
    }
  }

  /// Virtual time since ``start``: the exact sum of every advance.
  public var elapsed: Duration {
    state.withLock { $0.elapsed }
  }

  /// The current virtual instant: ``start`` plus ``elapsed``.
  public var now: Date {
    date(at: elapsed)
  }

  /// The most actions one call to `advance` or `run` may run before it stops and reports
  /// the work still due as runaway: 1 or more, 100,000 by default. Setting less is reported (at the
  /// line that set it, where the call stack can be read; else at the test) and changes nothing.
  public var maxRuns: Int {
    get { state.withLock { $0.maxRuns } }
    set {
      let kept = maxRuns
      let checked = Self.checkedMaxRuns(newValue, keeping: kept, in: "TestScheduler.maxRuns was set to") {
        reportRead($0, kind: .invalidArgument, fallback: nil)
      }
      state.withLock { $0.maxRuns = checked }
    }
  }

  /// Schedules `action` to run `delay` after the current virtual instant. A negative delay is
  /// reported as an issue at `callSite` and counts as zero.
  public func schedule(
    after delay: Duration,
    at callSite: CallSite,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledWork {
    let delay = checkedDelay(delay, at: callSite, in: "TestScheduler.schedule(after:)")
    let handle = state.withLock { state in
      state.queue.insert(deadline: state.elapsed + delay, callSite: callSite, work: .once(action))
    }
    return cancellation(of: handle)
  }

  /// Schedules `action` to run `delay` after the current virtual instant, then every `interval`.
  ///
  /// A negative delay is reported and counts as zero. An `interval` that is not positive would
  /// repeat forever at one instant: it is reported, and the work runs once, after `delay`.
  public func schedule(
    after delay: Duration,
    every interval: Duration,
    at callSite: CallSite,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledWork {
    let operation = "TestScheduler.schedule(after:every:)"
    let delay = checkedDelay(delay, at: callSite, in: operation)
    guard interval > .zero else {
      reportIssue(
        """
        \(operation) needs a positive interval: got \(interval.literal). Repeating at one instant would \
        never end, so the work runs once. Pass an interval greater than zero.
        """,
        kind: .invalidArgument,
        at: callSite
      )
      return schedule(after: delay, at: callSite, action)
    }
    let handle = state.withLock { state in
      state.queue.insert(
        deadline: state.elapsed + delay,
        callSite: callSite,
        work: .repeating(interval: interval, action)
      )
    }
    return cancellation(of: handle)
  }

  /// Suspends the current task until virtual time reaches `duration` from now.
  ///
  /// The task resumes when an `advance` or `run` reaches its deadline (even a delay of
  /// zero waits for one, like zero-delay ``schedule(after:at:_:)`` work). A negative duration is
  /// reported and counts as zero. While suspended it is listed in ``pending``.
  ///
  /// - Throws: `CancellationError` when the task is cancelled, before or while sleeping; the
  ///   sleeper is then removed from ``pending``.
  nonisolated(nonsending) public func sleep(for duration: Duration, at callSite: CallSite) async throws {
    let delay = checkedDelay(duration, at: callSite, in: "TestScheduler.sleep(for:)")
    try await sleep(until: { $0 + delay }, at: callSite, isolation: #isolation)
  }

  /// `sleep(for:at:)` on the caller's actor: it never hops to another executor, so a main-actor
  /// task that sleeps stays on the main actor, and its wake-up is queued there.
  ///
  /// `deadline` turns the current offset into the wake-up offset, read under the lock.
  func sleep(
    until deadline: @escaping @Sendable (Duration) -> Duration,
    at callSite: CallSite,
    isolation: isolated (any Actor)?
  ) async throws {
    let ticket = reserveSleeper(at: callSite)
    do {
      try await sleep(ticket, until: deadline, at: callSite, isolation: isolation)
    } catch let stranded as StrandedSleep {
      // The test itself slept, and nothing else would ever advance: said here, on the test's
      // task, then the scope moves time to the deadline as the test should have, running what was
      // due before it, in order.
      // Symbolicated here, on the test's task, not where the sleep was ended (a lane's thread, or
      // the watchdog's, whose looks must not come late).
      let site = stranded.sleptAt.isEmpty ? nil : ReadSite.firstFrameOfCodeUnderTest(inResumePoints: stranded.sleptAt)
      (site ?? FailureLocation(callSite)).report(stranded.message, kind: stranded.kind)
      if #available(EffectsVirtualTime , *) {
        await advanceForStrandedSleep(to: stranded.deadline, at: callSite)
      }
    } catch let unattended as UnattendedSleep {
      // Reported here, on the sleeping task, so that the report reaches the test that slept; in
      // XCTest, naming that test if another runs now.
      let origin = state.withLock { $0.origin }
      reportIssue(unattended.message + XCTestCaseOrigin.lateNote(for: origin), kind: unattended.kind, at: callSite)
      throw CancellationError()
    }
  }

  /// The sleep itself: suspends on the reserved `ticket` until the deadline is run.
  private func sleep(
    _ ticket: State.SleeperTicket,
    until deadline: @escaping @Sendable (Duration) -> Duration,
    at callSite: CallSite,
    isolation: isolated (any Actor)?
  ) async throws {
    let onMainActor = isolation === MainActor.shared
    // The scope that watches this sleep, when the test itself sleeps: told when it wakes.
    var watchedBy: AnyObject?
    defer {
      if #available(EffectsVirtualTime , *), let executor = watchedBy as? VirtualExecutor {
        executor.driverSleeps(nil)
      }
    }
    try await withTaskCancellationHandler(
      // Capturing `isolation` (not copying it in a capture list) keeps the closure on that actor.
      operation: {
        // Unsafe, not checked, because it pays in the benchmark `sleepers-tasks.1e4.effects`. Each
        // continuation is resumed exactly once, under the state lock that takes it out of the
        // queue: by `runNext`, by `onCancel`, or when the scope ends.
        try await withUnsafeThrowingContinuation(isolation: isolation) {
          (continuation: UnsafeContinuation<Void, any Error>) in
          let registered = state.withLock { state in
            // Cancelled before we got here (or the queue was emptied): the ticket is gone.
            guard state.isReserved(ticket) else { return false }
            state.sleeperSlots[ticket.index].onMainActor = onMainActor
            state.sleeperSlots[ticket.index].handle = state.queue.insert(
              deadline: max(deadline(state.elapsed), state.elapsed),
              callSite: callSite,
              work: .sleep(continuation, sleeper: ticket.index),
              id: state.sleeperSlots[ticket.index].id
            )
            return true
          }
          if !registered {
            continuation.resume(throwing: CancellationError())
          } else if #available(EffectsVirtualTime , *) {
            watchedBy = watchForStrandedDriver(ticket, onMainActor: onMainActor, at: callSite)
          }
        }
      },
      onCancel: {
        let continuation: UnsafeContinuation<Void, any Error>? = state.withLock { state in
          // Already resumed, or the queue was emptied: nothing to do.
          guard state.isReserved(ticket) else { return nil }
          let handle = state.sleeperSlots[ticket.index].handle
          state.freeSleeper(at: ticket.index)
          // Not registered yet: freeing the ticket tells the registration to throw.
          guard let handle, case .sleep(let continuation, _) = state.queue.remove(handle) else { return nil }
          return continuation
        }
        guard let continuation else { return }
        if onMainActor, #available(EffectsVirtualTime , *) {
          VirtualExecutor.resumingOnMainActor { continuation.resume(throwing: CancellationError()) }
        } else {
          continuation.resume(throwing: CancellationError())
        }
      },
      isolation: isolation
    )
  }

  /// Reserves a sleeper's ticket; reports a sleep on this scheduler, which has no scope open, from
  /// inside the scope of another: that scope's advances never wake it (once a scheduler).
  ///
  /// Out of line, so that `sleep`'s async frame holds only the ticket (the benchmark
  /// `sleepers-tasks.1e3.effects` counted one more allocation per sleeper with the check inline),
  /// and the common case — a scope open on this scheduler — pays only the flag.
  @inline(never)
  private func reserveSleeper(at callSite: CallSite) -> State.SleeperTicket {
    let (ticket, scope, unscoped, unattended) = state.withLock {
      (
        $0.reserveSleeper(), $0.scope?.executor, $0.scope == nil && !$0.reportedForeignSleep,
        $0.unattended && $0.scope == nil ? $0.elapsed : nil
      )
    }
    if let unattended { guardUnattendedSleep(ticket, sleptAt: unattended, at: callSite) }
    guard #available(EffectsVirtualTime , *) else { return ticket }
    if let scope {
      // The common case, a task on one of the scope's lanes, costs one thread-specific read.
      if VirtualExecutor.onCurrentThread !== scope { markOffLane(ticket, of: scope, at: callSite) }
      return ticket
    }
    guard unscoped, VirtualExecutor.current != nil,
      state.withLock({ state in
        defer { state.reportedForeignSleep = true }
        return !state.reportedForeignSleep
      })
    else { return ticket }
    reportIssue(
      """
      A task of a virtual-time scope sleeps here on another TestScheduler, one with no scope open: \
      advancing the scope's scheduler never wakes it. Sleep on the scope's scheduler: one scheduler per test, \
      shared by every environment it builds (read Environment.current inside the scope, or make the \
      environment with Environment.test(scheduler:)). An environment set inside the scope \
      (withEnvironment(.test()) within withVirtualTime) brings a scheduler of its own: nest them the other way, \
      withEnvironment(.test()) { await withVirtualTime { … } }, and the scope puts that environment on its \
      scheduler.
      """,
      kind: .wrongScheduler,
      at: callSite
    )
    return ticket
  }

  /// How long a sleep outside any scope may wait, in real time, with this scheduler never
  /// advanced, before it is taken for one that nothing will ever wake (see
  /// ``guardUnattendedSleep(_:sleptAt:at:)``). Long enough for a test that advances by itself from
  /// another task, on a busy machine.
  static let unattendedSleepLimit = Duration.seconds(5)

  /// Turns a hang into a failure, on a scheduler test support made for the test and handed to
  /// nobody (``State/unattended``: the environment of `withEnvironment({ … })` in a test that set
  /// none): a task that sleeps on it with no scope open waits for an advance nobody can make. If
  /// the scheduler is still where it was after ``unattendedSleepLimit`` of real time, and the task
  /// still sleeps, the sleep is reported at its line and ends with `CancellationError`. A scheduler
  /// a test holds is never guarded: the test may advance it, however long a busy machine takes.
  private func guardUnattendedSleep(_ ticket: State.SleeperTicket, sleptAt elapsed: Duration, at callSite: CallSite) {
    let limit = Self.unattendedSleepLimit
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(limit / .milliseconds(1)))) {
      [weak self] in
      self?.wakeUnattended(ticket, sleptAt: elapsed, at: callSite, after: limit)
    }
  }

  private func wakeUnattended(
    _ ticket: State.SleeperTicket,
    sleptAt elapsed: Duration,
    at callSite: CallSite,
    after limit: Duration
  ) {
    let continuation: UnsafeContinuation<Void, any Error>? = state.withLock { state in
      guard state.scope == nil, state.elapsed == elapsed, state.isReserved(ticket) else { return nil }
      let handle = state.sleeperSlots[ticket.index].handle
      state.freeSleeper(at: ticket.index)
      guard let handle, case .sleep(let continuation, _) = state.queue.remove(handle) else { return nil }
      return continuation
    }
    continuation?.resume(throwing: UnattendedSleep(limit: limit))
  }

  /// Why the test's own sleep was ended before its deadline: only the test could advance, and it
  /// was asleep.
  private struct StrandedSleep: Error {
    let deadline: Duration
    /// The resume points of the test as it slept, when the sleep's own site names none (a sleep on
    /// `environment.continuousClock`: see ``TestScheduler/awaitSite(of:)``): where it slept.
    let sleptAt: [UInt]

    var kind: ReportKind { .waitedOnVirtualTime }

    var message: String {
      """
      The test itself waited on virtual time, until \(deadline.literal) from the scope's start (a sleep, or a \
      network stub's latency, asked for at this line or on a clock made here), and nothing else in its scope was \
      going to move time: only the test advances a TestScheduler, and every task of the scope was waiting too. Without help it would have waited for ever; the \
      scope moved time to \(deadline.literal) itself, so the test goes on. Start what waits in a task of its own \
      (let loading = Task { await model.load() }), move time (await scheduler.advance(by:), or run()), then \
      await the task.
      """
    }
  }

  /// When the scope's driver sleeps on this scheduler, tells the scope how to wake it should it be
  /// stranded (its sleep leaves the queue and ends with ``StrandedSleep``), and answers the scope.
  @available(EffectsVirtualTime, *)
  private func watchForStrandedDriver(
    _ ticket: State.SleeperTicket,
    onMainActor: Bool,
    at callSite: CallSite
  ) -> VirtualExecutor? {
    guard let executor = state.withLock({ $0.scope?.executor }) as? VirtualExecutor,
      let task = ScopeTasks.currentTask, task == executor.driver
    else { return nil }
    executor.driverSleeps(
      VirtualExecutor.SleepingDriver { [weak self] in
        guard let self else { return }
        let taken = state.withLock { state -> (UnsafeContinuation<Void, any Error>, Duration)? in
          guard state.isReserved(ticket), let handle = state.sleeperSlots[ticket.index].handle,
            let deadline = state.queue.deadline(of: handle)
          else { return nil }
          state.freeSleeper(at: ticket.index)
          guard case .sleep(let continuation, _) = state.queue.remove(handle) else { return nil }
          return (continuation, deadline)
        }
        guard let (continuation, deadline) = taken else { return }
        // Found before the resumption, while the test's chain of calls is as it slept.
        let sleptAt =
          Self.namesNoLine(callSite, scope: state.withLock { $0.scope?.site })
          ? ScopeTasks.resumePoints(ofSuspendedOn: continuation) ?? [] : []
        let stranded = StrandedSleep(deadline: deadline, sleptAt: sleptAt)
        if onMainActor {
          VirtualExecutor.resumingOnMainActor { continuation.resume(throwing: stranded) }
        } else {
          continuation.resume(throwing: stranded)
        }
      }
    )
    return executor
  }

  /// How a sleep that nothing would wake ends (see ``guardUnattendedSleep(_:sleptAt:at:)``): the
  /// sleeping task reports it, then throws `CancellationError`.
  private struct UnattendedSleep: Error {
    let limit: Duration

    var kind: ReportKind { .wrongScheduler }

    var message: String {
      """
      A task slept for \(limit.literal) of real time on a TestScheduler that nothing advanced, outside any \
      virtual-time scope — here, or on the clock of the environment made here — so nothing would ever wake it; it \
      was woken with CancellationError. Run the code in a \
      virtual-time scope — @Test(.virtualTime), or withVirtualTime { scheduler in … } — and advance its scheduler: \
      an environment made outside a scope (Environment.test(), or withEnvironment({ … }) in a test) has a scheduler \
      that only a scope, or an advance of your own, moves.
      """
    }
  }

  /// Marks a sleeper of the scope that sleeps off the scope's lanes — on an actor with its own
  /// executor, or under another task executor, where the scope cannot count its jobs — so that
  /// every advance that wakes it says it could not wait for it; says so at the sleep too, once a
  /// scope (the sleep may come after the advance that should have woken it).
  @available(EffectsVirtualTime, *)
  private func markOffLane(_ ticket: State.SleeperTicket, of scope: AnyObject, at callSite: CallSite) {
    let executor = unsafeDowncast(scope, to: VirtualExecutor.self)
    guard VirtualExecutor.current === executor else { return }
    state.withLock { state in
      if state.isReserved(ticket) { state.sleeperSlots[ticket.index].offLane = true }
    }
    guard executor.claimReport(of: "sleeps off the lanes") else { return }
    reportIssue(
      """
      A task of the virtual-time scope sleeps here from a thread outside the scope — on an actor with its \
      own executor (a SerialExecutor of its own, such as a database actor on a DispatchQueue), or under another \
      task executor — where the scope cannot count its jobs: an advance cannot tell when it gets here, nor wait \
      for it after waking it, so what the test sees can depend on timing. In tests, run such code on the default \
      executors (inject the executor), or await its result instead of advancing past it.
      """,
      kind: .inexactTime,
      at: callSite
    )
  }

  /// The `Date` at `offset` from the start.
  func date(at offset: Duration) -> Date {
    start.addingTimeInterval(offset.timeInterval)
  }

  /// `delay`, at most ``TimerQueue/never`` (the same deadline: never), or zero (reported, naming
  /// `operation`) when it is negative.
  private func checkedDelay(_ delay: Duration, at callSite: CallSite, in operation: String) -> Duration {
    guard delay < .zero else { return min(delay, TimerQueue.never) }
    reportIssue(
      "\(operation) got a negative delay, \(delay.literal), and counts it as zero. Pass .zero or more.",
      kind: .invalidArgument,
      at: callSite
    )
    return .zero
  }

  /// Cancelling removes the work from the queue. The handle holds the queue's state, not the
  /// scheduler: when the scheduler goes, its `deinit` empties the queue, so a handle kept by work
  /// that captures it makes no cycle that outlives the scheduler.
  func cancellation(of handle: TimerQueue.Handle) -> ScheduledWork {
    ScheduledWork(owner: state, id: handle.id, slot: handle.slot)
  }
}

extension Locked: WorkCancelling where Value == TestScheduler.State {
  package func cancelWork(id: UInt64, slot: Int) {
    // The removed work is returned out of the lock and freed here, after it: its closure's
    // captures may cancel other work from their `deinit` (a model cancelling its timers), which
    // takes this lock.
    let removed = withLock { $0.queue.remove(TimerQueue.Handle(slot: slot, id: id)) }
    withExtendedLifetime(removed) {}
  }
}

extension TestScheduler {
  /// Everything behind the scheduler's lock.
  package struct State {
    var elapsed: Duration = .zero
    var queue = TimerQueue()
    var maxRuns: Int
    /// Every sleeper from `sleep` until it is resumed, in a slab: reserving, finding and freeing
    /// one is an index, never a hash lookup, so the cost per sleeper stays flat however many sleep
    /// at once. A slot's `id` is 0 while it is free.
    var sleeperSlots: [SleeperSlot] = []
    var freeSleeperSlots: [Int] = []
    /// The virtual-time scope open on this scheduler (nil while it is opening), and the line
    /// that opened it. The executor is a `VirtualExecutor`, stored as an object because that type
    /// exists only where the engine is available (`EffectsVirtualTime`).
    var scope: (executor: AnyObject?, site: FailureLocation)?
    /// The call running work now (`advance`, `run`), so that a nested one is reported.
    var driving: (operation: String, site: CallSite)?
    /// Checks to run when the open scope ends, after its leftover work: a `StubNetwork`'s unused
    /// stubs.
    var scopeEndChecks: [@Sendable () -> Void] = []
    /// What runs when the open scope's operation has returned and its tasks have settled, before
    /// its leftover work is read: a `TestObserver` still consuming reports itself and stops.
    var scopeEndingChecks: [@Sendable (_ scope: FailureLocation) -> Bool] = []
    /// Whether a sleep from inside another scheduler's scope was reported: once a scheduler.
    var reportedForeignSleep = false
    /// Whether test support made this scheduler for a test and handed it to nobody, so that a
    /// sleep on it outside a scope can only be woken by a scope (see `guardUnattendedSleep`).
    var unattended = false
    /// The XCTest case test support made this scheduler for (with ``unattended``).
    var origin: XCTestCaseOrigin?

    init(maxRuns: Int) {
      self.maxRuns = maxRuns
    }

    /// Empties the queue, returning the continuations of the sleepers that were waiting. A sleeper
    /// still on its way to register finds its ticket gone, and throws `CancellationError`.
    mutating func removeAll() -> (entries: [TimerQueue.Entry], sleepers: [UnsafeContinuation<Void, any Error>]) {
      let entries = queue.removeAll()
      for index in sleeperSlots.indices where sleeperSlots[index].id != 0 { freeSleeper(at: index) }
      let continuations = entries.compactMap { entry -> UnsafeContinuation<Void, any Error>? in
        if case .sleep(let continuation, _) = entry.work { return continuation }
        return nil
      }
      return (entries, continuations)
    }

    /// A sleeper's place until it is resumed: its queue entry once it has registered.
    struct SleeperSlot {
      /// The id of its queue entry; 0 while the slot is free.
      var id: UInt64
      /// How many sleepers the slot has held: tells this one's ticket from an earlier one's.
      var generation: UInt32
      var handle: TimerQueue.Handle?
      /// Whether the sleeper went to sleep off the scope's lanes (an actor with its own executor):
      /// its wake-up cannot be waited for.
      var offLane = false
      /// Whether the sleeper sleeps on the main actor: its wake-up then goes to the main lane.
      var onMainActor = false
    }

    /// Names a sleeper's slot and generation, in one word: the sleeping task's frame carries it, and
    /// a larger frame costs an unstructured task an allocation.
    struct SleeperTicket: Sendable {
      let raw: UInt64

      init(index: Int, generation: UInt32) {
        raw = UInt64(index) << 32 | UInt64(generation)
      }

      var index: Int { Int(raw >> 32) }
      var generation: UInt32 { UInt32(truncatingIfNeeded: raw) }
    }

    /// A slot for a new sleeper.
    mutating func reserveSleeper() -> SleeperTicket {
      let id = queue.makeSequence()
      if let index = freeSleeperSlots.popLast() {
        sleeperSlots[index].id = id
        return SleeperTicket(index: index, generation: sleeperSlots[index].generation)
      }
      sleeperSlots.append(SleeperSlot(id: id, generation: 0, handle: nil))
      return SleeperTicket(index: sleeperSlots.count - 1, generation: 0)
    }

    /// Whether `ticket` still names its sleeper: not resumed, cancelled or emptied out since.
    func isReserved(_ ticket: SleeperTicket) -> Bool {
      let index = ticket.index
      return index < sleeperSlots.count && sleeperSlots[index].id != 0
        && sleeperSlots[index].generation == ticket.generation
    }

    /// Frees the slot at `index` for the next sleeper, whose ticket will not match this one's.
    mutating func freeSleeper(at index: Int) {
      sleeperSlots[index].id = 0
      sleeperSlots[index].handle = nil
      sleeperSlots[index].offLane = false
      sleeperSlots[index].onMainActor = false
      sleeperSlots[index].generation &+= 1
      freeSleeperSlots.append(index)
    }
  }
}
