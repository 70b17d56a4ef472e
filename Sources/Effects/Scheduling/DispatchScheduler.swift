public import Dispatch
import Foundation

/// The live ``WorkScheduler`` for background work: actions run on a `DispatchQueue` after real time
/// passes.
///
/// ```swift
/// let scheduler = DispatchScheduler()  // a private serial queue
/// scheduler.schedule(after: .seconds(30), every: .seconds(30)) { cache.evictExpiredEntries() }
/// ```
///
/// `DispatchScheduler()` uses a private serial queue, so its actions never overlap and never hold
/// up the main thread; it is the live environment's scheduler. For view models and UI state use
/// ``main``, whose actions run on the main queue and so on the main actor. (A `@MainActor`
/// closure given to a scheduler on another queue still runs on the main actor, but is sent there
/// from that queue, one hop later.) Actions due at the same instant run in the order they were
/// scheduled, and zero-delay work is queued too, never run inline by `schedule`. Repeating work
/// is scheduled against fixed deadlines (`delay + n × interval` from the start), so it does not
/// drift. ``sleep(for:at:)`` suspends with `Task.sleep` and resumes on the caller's actor.
///
/// Which scheduler when: ``main`` for view models and anything that touches UI state;
/// `DispatchScheduler()` for background work that must not block the main thread;
/// `TestScheduler` (in `EffectsTestSupport`) in tests; ``InlineScheduler`` where a test cares that
/// work happens, not when.
public struct DispatchScheduler: WorkScheduler {
  /// The queue actions run on.
  package let queue: DispatchQueue

  /// Creates a scheduler running work on `queue` (a private serial queue by default).
  public init(queue: DispatchQueue = DispatchQueue(label: "swift-effects.DispatchScheduler")) {
    self.queue = queue
  }

  /// The live scheduler for UI code: work runs on the main queue, so on the main actor.
  ///
  /// Give view models this scheduler in the app. Their callbacks then touch UI state directly,
  /// with the `@MainActor` closures of ``WorkScheduler``'s extension:
  ///
  /// ```swift
  /// @MainActor final class ToastModel {
  ///   private(set) var message: String?
  ///   private let environment: Environment
  ///
  ///   init(environment: Environment = .current) {
  ///     self.environment = environment
  ///   }
  ///
  ///   func show(_ text: String) {
  ///     message = text
  ///     environment.scheduler.schedule(after: .seconds(3)) { @MainActor in self.message = nil }
  ///   }
  /// }
  ///
  /// // In the app:
  /// var environment = Environment.live
  /// environment.scheduler = DispatchScheduler.main
  /// let toast = ToastModel(environment: environment)
  /// ```
  ///
  /// The test drives the same model on a `TestScheduler`, from a `@MainActor` test, so the
  /// callback runs on the main actor there too, at exactly its deadline.
  public static var main: DispatchScheduler {
    DispatchScheduler(queue: .main)
  }

  /// Runs `action` on the queue once `delay` has passed.
  public func schedule(
    after delay: Duration,
    at callSite: CallSite,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledWork {
    let cancelled = Locked(false)
    queue.asyncAfter(deadline: .now() + Self.interval(delay)) {
      if !cancelled.snapshot { action() }
    }
    return ScheduledWork { cancelled.withLock { $0 = true } }
  }

  /// Runs `action` on the queue after `delay`, then every `interval`, until cancelled.
  public func schedule(
    after delay: Duration,
    every interval: Duration,
    at callSite: CallSite,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledWork {
    let cancelled = Locked(false)
    Self.tick(
      queue: queue,
      start: .now() + Self.interval(delay),
      interval: max(interval, .zero),
      count: 0,
      cancelled: cancelled,
      action: action
    )
    return ScheduledWork { cancelled.withLock { $0 = true } }
  }

  /// Suspends the current task for `duration` of real time.
  nonisolated(nonsending) public func sleep(for duration: Duration, at callSite: CallSite) async throws {
    try await Task.sleep(for: max(duration, .zero))
  }

  private static func tick(
    queue: DispatchQueue,
    start: DispatchTime,
    interval: Duration,
    count: Int64,
    cancelled: Locked<Bool>,
    action: @escaping @Sendable () -> Void
  ) {
    queue.asyncAfter(deadline: start + Self.interval(interval * count)) {
      guard !cancelled.snapshot else { return }
      action()
      tick(queue: queue, start: start, interval: interval, count: count + 1, cancelled: cancelled, action: action)
    }
  }

  /// `duration` as a dispatch interval, clamped to zero and to what nanoseconds in an `Int` can hold.
  static func interval(_ duration: Duration) -> DispatchTimeInterval {
    guard duration > .zero else { return .nanoseconds(0) }
    let (seconds, attoseconds) = duration.components
    let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return .never }
    let (nanoseconds, overflowAgain) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
    return overflowAgain ? .never : .nanoseconds(Int(nanoseconds))
  }
}
