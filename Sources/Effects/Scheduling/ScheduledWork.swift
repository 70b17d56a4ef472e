/// A handle to work given to a ``Scheduling``: cancel it to stop the work.
///
/// ```swift
/// let refresh = environment.scheduler.schedule(after: .seconds(30), every: .seconds(30)) {
///   model.refresh()
/// }
/// // later
/// refresh.cancel()
/// ```
///
/// A cancelled action never runs again (an action already running finishes). Dropping the handle
/// does *not* cancel the work: keep it if you may need to stop it.
public struct ScheduledWork: Sendable {
  private let onCancel: @Sendable () -> Void

  /// Creates a handle whose ``cancel()`` calls `cancel`. Schedulers make these; calling `cancel`
  /// more than once must be harmless.
  public init(cancel: @escaping @Sendable () -> Void) {
    self.onCancel = cancel
  }

  /// Cancels the work: it will not run (again). Cancelling twice, or after it ran, does nothing.
  public func cancel() {
    onCancel()
  }
}
