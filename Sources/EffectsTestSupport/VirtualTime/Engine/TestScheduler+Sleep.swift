package import Effects
import Foundation

// How a task sleeps on a `TestScheduler`: a slot reserved, a queue entry registered, a wake-up
// run by an advance; and what happens to a sleep nothing would ever wake.
extension TestScheduler {
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
      try await endStrandedSleep(stranded, at: callSite)
    } catch let unattended as UnattendedSleep {
      // Reported here, on the sleeping task, so that the report reaches the test that slept; in
      // XCTest, naming that test if another runs now.
      let origin = state.withLock { $0.origin }
      reportIssue(unattended.message + XCTestCaseOrigin.lateNote(for: origin), kind: unattended.kind, at: callSite)
      throw CancellationError()
    }
  }

  /// The test itself slept, and nothing else would ever advance: said here, on the test's task,
  /// then the scope moves time to the deadline as the test should have, running what was due
  /// before it, in order.
  ///
  /// Out of line, so that `sleep`'s async frame does not hold this one's locals: inline, they cost
  /// every sleeping task an allocation (the benchmark `sleepers-tasks.1e3.effects`, 11 where 10).
  @inline(never)
  private func endStrandedSleep(_ stranded: StrandedSleep, at callSite: CallSite) async throws {
    // Symbolicated here, on the test's task, not where the sleep was ended (a lane's thread, or
    // the watchdog's, whose looks must not come late).
    let site = stranded.sleptAt.isEmpty ? nil : ReadSite.firstFrameOfCodeUnderTest(inResumePoints: stranded.sleptAt)
    let place = site ?? FailureLocation(callSite)
    // Once a line a scope: a loop that sleeps at one line is one mistake, not one per turn.
    var first = true
    if #available(EffectsVirtualTime , *), let executor = state.withLock({ $0.scope?.executor }) as? VirtualExecutor {
      first = executor.claimReport(of: "stranded at \(place.filePath):\(place.line):\(place.column)")
    }
    if first { place.report(stranded.message, kind: stranded.kind) }
    // A sleep until the end of virtual time is due never: no move of time ends it, so it ends
    // as a sleep the scope cancels does, and time stays where it is.
    guard stranded.deadline < TimerQueue.never else { throw CancellationError() }
    if #available(EffectsVirtualTime , *) {
      await advanceForStrandedSleep(to: stranded.deadline, at: callSite)
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
        // continuation is resumed exactly once: by whoever made the one transition that freed its
        // slot, under the state lock (see `State.SleeperSlot`).
        try await withUnsafeThrowingContinuation(isolation: isolation) {
          (continuation: UnsafeContinuation<Void, any Error>) in
          let registered = state.withLock {
            $0.registerSleeper(
              ticket,
              until: deadline,
              at: callSite,
              continuation: continuation,
              onMainActor: onMainActor
            )
          }
          if !registered {
            continuation.resume(throwing: CancellationError())
          } else if #available(EffectsVirtualTime , *) {
            watchedBy = watchForStrandedDriver(ticket, onMainActor: onMainActor, at: callSite)
          }
        }
      },
      onCancel: {
        // Nil when already resumed, or not registered yet (its registration will throw).
        let continuation = state.withLock { $0.cancelSleeper(ticket) }
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
      VirtualTimeWording.sleepOnASchedulerWithNoScope(),
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
    let continuation = state.withLock { $0.endUnattendedSleeper(ticket, sleptAt: elapsed) }
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
      deadline < TimerQueue.never
        ? VirtualTimeWording.strandedTest(deadline: deadline.literal)
        : VirtualTimeWording.strandedTestUntilTheEnd(end: deadline.literal)
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
        let taken = state.withLock { $0.strandSleeper(ticket) }
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
      VirtualTimeWording.unattendedSleep(limit: limit.literal)
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
    state.withLock { $0.markSleeperOffLane(ticket) }
    guard executor.claimReport(of: "sleeps off the lanes") else { return }
    reportIssue(
      VirtualTimeWording.offLaneSleep(),
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
  func checkedDelay(_ delay: Duration, at callSite: CallSite, in operation: String) -> Duration {
    guard delay < .zero else { return min(delay, TimerQueue.never) }
    reportIssue(
      VirtualTimeWording.negativeDelay(operation: operation, delay: delay.literal),
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

extension TestScheduler {
  /// A `Clock` view of a ``TestScheduler``, for code that takes `any Clock<Duration>`: its `now`
  /// is the scheduler's ``TestScheduler/elapsed`` and its sleeps are the scheduler's sleepers,
  /// woken by `advance`.
  ///
  /// What a scope's environment answers as its `continuousClock` (wrapped in a `DurationClock`):
  /// users reach it as `Environment.current.continuousClock`.
  ///
  /// `Clock`'s `sleep(until:tolerance:)` cannot take a source location, so ``pending`` lists these
  /// sleeps at the line that made the view. Through `DurationClock`'s own `sleep(for:)` and
  /// `sleep(until:tolerance:)` a sleep stays on its caller's actor, as the scheduler's `sleep(for:)`
  /// does; code generic over `Clock` (`Task.sleep(for:clock:)`, a `debounce`) calls `Clock`'s
  /// requirement, a plain `nonisolated` async function, so a `@MainActor` task sleeping there hops
  /// off the main actor and back, which `withVirtualTime` follows exactly.
  package struct VirtualClock: CallerIsolatedClock {
    /// An instant of virtual time: an exact offset from the scheduler's ``TestScheduler/start``
    /// (`Instant(offset: .seconds(5))`), the same type as a `DurationClock`'s instants.
    package typealias Instant = DurationClock.Instant

    /// The scheduler this clock views.
    package let scheduler: TestScheduler
    private let callSite: CallSite

    /// A clock view of `scheduler`; its sleeps are listed as scheduled at the caller's line.
    package init(
      _ scheduler: TestScheduler,
      fileID: StaticString = #fileID,
      filePath: StaticString = #filePath,
      line: UInt = #line,
      column: UInt = #column
    ) {
      self.init(scheduler, callSite: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// A clock view of `scheduler` whose sleeps are listed as scheduled at `callSite`.
    init(_ scheduler: TestScheduler, callSite: CallSite) {
      self.scheduler = scheduler
      self.callSite = callSite
    }

    /// The scheduler's current offset.
    package var now: Instant {
      Instant(offset: scheduler.elapsed)
    }

    /// Virtual time is exact: zero.
    package var minimumResolution: Duration {
      .zero
    }

    /// Suspends until the scheduler's time reaches `deadline` (a deadline already passed is due now);
    /// throws `CancellationError` when the task is cancelled.
    package func sleep(until deadline: Instant, tolerance: Duration?) async throws {
      try await scheduler.sleep(until: { _ in deadline.offset }, at: callSite, isolation: nil)
    }

    /// ``sleep(until:tolerance:)`` on the caller's actor.
    nonisolated(nonsending) package func sleepOnCallersActor(until deadline: Instant, tolerance: Duration?) async throws
    {
      try await scheduler.sleep(until: { _ in deadline.offset }, at: callSite, isolation: #isolation)
    }
  }
}
