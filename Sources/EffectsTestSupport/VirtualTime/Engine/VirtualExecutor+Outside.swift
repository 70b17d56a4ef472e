import Effects
import Foundation

// Work a scope waits for but does not run: real I/O started on purpose from inside it (a network
// tape being recorded from the live server). It runs outside the scope, the scope counts it as one
// job in flight meanwhile — so an awaited advance waits for it, as for any task of the scope —
// and the task that waits for it is resumed as the scope's own work, not as an escape.

@available(EffectsVirtualTime, *)
extension VirtualExecutor {
  /// Runs `operation` outside every scope and answers what it returned or threw. Inside a scope,
  /// the scope is not idle until it has: an `await advance` waits for the real I/O it does. Outside
  /// any scope it just runs it.
  ///
  /// Cancelling the calling task cancels `operation`.
  static func outside<Value: Sendable>(
    _ operation: @escaping @Sendable () async throws -> Value
  ) async throws -> Value {
    guard let scope = current else { return try await operation() }
    scope.beginOutsideWork()
    // The running work, and whether the caller was cancelled before it started.
    let running = Locked<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))
    return try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Value, any Error>) in
        // From a queue's thread, where no task and no scope runs: the task is not the scope's.
        DispatchQueue.global().async {
          let task = Task.detached {
            let result: Result<Value, any Error>
            do {
              result = .success(try await operation())
            } catch {
              result = .failure(error)
            }
            DispatchQueue.global().async {
              // Resumed on behalf of the scope's lane, so the waiting task's wake-up is the
              // scope's own job; then the outside work stops counting (in that order: the count
              // never reaches zero between the two).
              let previous = lane.value
              lane.set(Unmanaged.passUnretained(scope).toOpaque())
              continuation.resume(with: result)
              scope.finished()
              lane.set(previous)
            }
          }
          let cancelled = running.withLock { state in
            state.task = task
            return state.cancelled
          }
          if cancelled { task.cancel() }
        }
      }
    } onCancel: {
      let task = running.withLock { state in
        state.cancelled = true
        return state.task
      }
      task?.cancel()
    }
  }
}

@available(EffectsVirtualTime, *)
extension VirtualExecutor {
  /// Counts work outside the scope as one job in flight, until ``finished()``.
  fileprivate func beginOutsideWork() {
    condition.lock()
    inFlight += 1
    condition.unlock()
  }
}
