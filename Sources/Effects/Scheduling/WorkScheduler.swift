import Foundation

/// Running work later, as a co-effect: timers, delays, debounce, retry.
///
/// Code that calls `DispatchQueue.main.asyncAfter` or `Task.sleep` can only be tested by waiting.
/// Code that schedules through `environment.scheduler` can be tested in virtual time:
///
/// ```swift
/// func showToast(_ text: String, on toast: ToastModel, environment: Environment = .current) {
///   toast.show(text)
///   environment.scheduler.schedule(after: .seconds(3)) { toast.dismiss() }
/// }
/// ```
///
/// A conforming type must:
/// - run each action once its delay has passed, never before; a negative delay counts as zero;
/// - run actions due at the same instant in the order they were scheduled;
/// - never run an action whose ``ScheduledWork`` was cancelled before it started;
/// - for repeating work, run the first tick after `delay` and then every `interval`;
/// - make ``sleep(for:at:)`` throw `CancellationError` when its task is cancelled.
///
/// The requirements take a ``CallSite`` (protocol requirements cannot default `#fileID`); call the
/// extension's spellings — `schedule(after:_:)`, `schedule(after:every:_:)`, `sleep(for:)` — which
/// fill it in, so a test scheduler can say which line scheduled work that was left pending.
///
/// ## Main-actor callbacks
/// An action is `@Sendable () -> Void`: it runs wherever the scheduler runs work. For a view
/// model, whose callbacks touch main-actor state, mark the closure `@MainActor` and the extension
/// runs it on the main actor, on any scheduler:
///
/// ```swift
/// @MainActor final class ToastModel {
///   private(set) var message: String?
///
///   func show(_ text: String, environment: Environment = .current) {
///     message = text
///     environment.scheduler.schedule(after: .seconds(3)) { @MainActor in self.message = nil }
///   }
/// }
/// ```
///
/// ## Which scheduler when
/// - ``DispatchScheduler/main`` in the app, for view models and anything that touches UI state:
///   work runs on the main queue, so `@MainActor` callbacks run there and then.
/// - ``DispatchScheduler`` (a private serial queue; the live environment's default) for
///   background work that must not hold up the main thread.
/// - `TestScheduler` (in `EffectsTestSupport`) in tests: virtual time, moved by the test. Drive
///   main-actor code from a `@MainActor` test, so callbacks run on the main actor there too.
/// - ``InlineScheduler`` where a test cares *that* work happens, not when: it runs work at once.
public protocol WorkScheduler: Sendable {
  /// Runs `action` once, `delay` from now.
  func schedule(
    after delay: Duration,
    at callSite: CallSite,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledWork

  /// Runs `action` `delay` from now, then every `interval` until cancelled.
  func schedule(
    after delay: Duration,
    every interval: Duration,
    at callSite: CallSite,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledWork

  /// Suspends the current task for `duration`.
  ///
  /// It runs on the caller's actor (`nonisolated(nonsending)`): a `@MainActor` task that sleeps
  /// never hops to the global executor and back, so a test scheduler can wake it in order with the
  /// main actor's other work.
  ///
  /// - Throws: `CancellationError` when the task is cancelled while sleeping.
  nonisolated(nonsending) func sleep(for duration: Duration, at callSite: CallSite) async throws
}

extension WorkScheduler {
  /// Runs `action` once, `delay` from now.
  ///
  /// ```swift
  /// environment.scheduler.schedule(after: .milliseconds(300)) { search(query) }
  /// ```
  @discardableResult
  public func schedule(
    after delay: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledWork {
    schedule(after: delay, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column), action)
  }

  /// Runs `action` `delay` from now, then every `interval` until the returned work is cancelled.
  ///
  /// ```swift
  /// let polling = environment.scheduler.schedule(after: .zero, every: .seconds(5)) { poll() }
  /// ```
  @discardableResult
  public func schedule(
    after delay: Duration,
    every interval: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledWork {
    schedule(
      after: delay,
      every: interval,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
      action
    )
  }

  /// Suspends the current task for `duration` of this scheduler's time.
  ///
  /// ```swift
  /// try await environment.scheduler.sleep(for: .seconds(2))  // retry back-off
  /// ```
  nonisolated(nonsending) public func sleep(
    for duration: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async throws {
    try await sleep(for: duration, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}
