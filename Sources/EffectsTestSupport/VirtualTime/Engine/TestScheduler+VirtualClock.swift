package import Effects

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
