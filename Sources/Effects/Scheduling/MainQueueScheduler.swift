public import Foundation

/// The live ``Scheduling`` for UI code: work runs on the main queue, so on the main actor.
///
/// Give view models this scheduler in the app. Their callbacks then touch UI state directly, with
/// the `@MainActor` closures of ``Scheduling``'s extension:
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
/// environment.scheduler = MainQueueScheduler()
/// let toast = ToastModel(environment: environment)
/// ```
///
/// and the test drives the same model on a `TestScheduler`, from a `@MainActor` test, so the
/// callback runs on the main actor there too, at exactly its deadline:
///
/// ```swift
/// @MainActor @Test func theToastHidesAfterThreeSeconds() {
///   let scheduler = TestScheduler()
///   let toast = ToastModel(environment: .test(scheduler: scheduler))
///   toast.show("Saved")
///   scheduler.advance(by: .seconds(3))
///   #expect(toast.message == nil)
/// }
/// ```
///
/// Actions run in deadline order, those due at the same instant in the order they were scheduled
/// (the main queue is serial, first in first out), never overlapping each other or other
/// main-actor work. Zero-delay work is queued too, never run inline by `schedule`, even when it is
/// called on the main queue. Repeating work is scheduled against fixed deadlines
/// (`delay + n × interval` from the start), so it does not drift, like ``DispatchScheduler``'s.
///
/// ``sleep(for:at:)`` suspends with `Task.sleep` and resumes on the caller's actor: a
/// `@MainActor` task wakes on the main actor, a nonisolated one on the global executor.
///
/// Which scheduler when: this one for view models and anything that touches UI state;
/// ``DispatchScheduler`` (a private serial queue) for background work that must not block the
/// main thread; `TestScheduler` (in `EffectsTestSupport`) in tests; ``InlineScheduler`` where a
/// test cares that work happens, not when.
public struct MainQueueScheduler: Scheduling {
  private let base = DispatchScheduler(queue: .main)

  /// Creates a scheduler that runs work on the main queue.
  ///
  /// ```swift
  /// environment.scheduler = MainQueueScheduler()
  /// ```
  public init() {}

  /// The current instant, `Date()`.
  ///
  /// ```swift
  /// let shownAt = MainQueueScheduler().now
  /// ```
  public var now: Date { Date() }

  /// Runs `action` on the main queue once `delay` has passed.
  ///
  /// The action is `@Sendable` (this is the protocol's requirement); it runs on the main queue, so
  /// `MainActor.assumeIsolated` holds inside it. Prefer the `@MainActor` closure of the extension:
  ///
  /// ```swift
  /// scheduler.schedule(after: .seconds(3)) { @MainActor in toast.message = nil }
  /// ```
  public func schedule(
    after delay: Duration,
    at callSite: CallSite,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledWork {
    base.schedule(after: delay, at: callSite, action)
  }

  /// Runs `action` on the main queue after `delay`, then every `interval`, until cancelled.
  ///
  /// ```swift
  /// let clock = scheduler.schedule(after: .zero, every: .seconds(1)) { @MainActor in model.tick() }
  /// // later
  /// clock.cancel()
  /// ```
  public func schedule(
    after delay: Duration,
    every interval: Duration,
    at callSite: CallSite,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledWork {
    base.schedule(after: delay, every: interval, at: callSite, action)
  }

  /// Suspends the current task for `duration` of real time; it resumes on the caller's actor.
  ///
  /// ```swift
  /// try await environment.scheduler.sleep(for: .seconds(2))  // on the main actor before and after
  /// ```
  ///
  /// - Throws: `CancellationError` when the task is cancelled while sleeping.
  nonisolated(nonsending) public func sleep(for duration: Duration, at callSite: CallSite) async throws {
    try await base.sleep(for: duration, at: callSite)
  }
}
