import Foundation

/// A ``WorkScheduler`` that runs work at once, on the caller's thread, ignoring every delay.
///
/// Use it where a test cares *that* work happens, not *when*: a delayed save, a debounce that is
/// not under test. Repeating work runs its first tick once and is then done — there is no time
/// to repeat in — and ``sleep(for:at:)`` returns at once (throwing `CancellationError` if the
/// task is already cancelled).
///
/// ```swift
/// var environment = Environment.test()
/// environment.scheduler = InlineScheduler()
/// model.saveLater(environment: environment)  // saves before returning
/// ```
///
/// For tests about timing (debounce, retry, timeouts) use the test scheduler of
/// `EffectsTestSupport`, which moves virtual time only when the test says so.
public struct InlineScheduler: WorkScheduler {
  /// Creates a scheduler that runs work at once.
  public init() {}

  /// Runs `action` now and returns a handle with nothing left to cancel.
  public func schedule(
    after delay: Duration,
    at callSite: CallSite,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledWork {
    action()
    return ScheduledWork {}
  }

  /// Runs `action` once, now (its first tick), and never again.
  public func schedule(
    after delay: Duration,
    every interval: Duration,
    at callSite: CallSite,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledWork {
    action()
    return ScheduledWork {}
  }

  /// Returns at once; throws `CancellationError` if the current task is cancelled.
  nonisolated(nonsending) public func sleep(for duration: Duration, at callSite: CallSite) async throws {
    try Task.checkCancellation()
  }
}
