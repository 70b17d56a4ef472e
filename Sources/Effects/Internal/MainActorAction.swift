import Dispatch
import Foundation

/// Main-actor work wrapped as the plain `@Sendable` action every ``WorkScheduler`` runs.
///
/// When the scheduler runs it on the main queue (`DispatchScheduler.main`, a `TestScheduler`
/// advanced from the main actor), the work runs there and then. Anywhere else (a private queue, a
/// test's background thread) it is sent to the main actor as a task, which is queued behind what is
/// already waiting there; a virtual-time scope counts that task, so `await advance` still waits
/// for it. Either way it runs only if it was not cancelled first: cancelling after the hop was
/// queued, but before the main actor reached it, still stops it.
struct MainActorAction: Sendable {
  private let action: @MainActor @Sendable () -> Void
  private let cancelled = Locked(false)

  init(_ action: @escaping @MainActor @Sendable () -> Void) {
    self.action = action
  }

  /// Runs the work on the main actor: at once on the main queue, otherwise through a task.
  func run() {
    if MainQueue.isCurrent {
      // The main queue is where the main actor runs: nothing else holds it while we are here.
      MainActor.assumeIsolated { runUnlessCancelled() }
    } else {
      Task { @MainActor in runUnlessCancelled() }
    }
  }

  /// Stops every later run, including one already on its way to the main actor.
  func cancel() {
    cancelled.withLock { $0 = true }
  }

  @MainActor private func runUnlessCancelled() {
    guard !cancelled.snapshot else { return }
    action()
  }
}
