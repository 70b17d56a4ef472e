import Dispatch

/// A serial executor of its own on a `DispatchQueue`, as a database actor might have: its jobs go
/// straight to the queue, where no concurrency-runtime hook sees them.
@available(EffectsVirtualTime, *)
package final class QueueExecutor: SerialExecutor {
  private let queue: DispatchQueue

  package init(label: String) {
    queue = DispatchQueue(label: label)
  }

  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedSerialExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}
