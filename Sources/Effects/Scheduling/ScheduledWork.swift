/// A handle to work given to a ``WorkScheduler``: cancel it to stop the work.
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
  private let storage: Storage

  private enum Storage: Sendable {
    case closure(@Sendable () -> Void)
    case handle(any WorkCancelling, id: UInt64, slot: Int)
  }

  /// Creates a handle whose ``cancel()`` calls `cancel`. Schedulers make these; calling `cancel`
  /// more than once must be harmless.
  public init(cancel: @escaping @Sendable () -> Void) {
    self.storage = .closure(cancel)
  }

  /// A handle that cancels by asking `owner` to remove the work it knows as (`id`, `slot`): no
  /// closure, so scheduling allocates nothing for the handle. For this package's schedulers.
  package init(owner: any WorkCancelling, id: UInt64, slot: Int) {
    self.storage = .handle(owner, id: id, slot: slot)
  }

  /// Cancels the work: it will not run (again). Cancelling twice, or after it ran, does nothing.
  public func cancel() {
    switch storage {
    case .closure(let cancel): cancel()
    case .handle(let owner, let id, let slot): owner.cancelWork(id: id, slot: slot)
    }
  }
}

/// Something holding scheduled work that can remove it by its (`id`, `slot`) handle.
package protocol WorkCancelling: AnyObject, Sendable {
  /// Removes the work; does nothing when it already ran or was cancelled.
  func cancelWork(id: UInt64, slot: Int)
}
