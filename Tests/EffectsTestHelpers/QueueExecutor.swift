import Dispatch

/// A serial executor of its own on a `DispatchQueue`, as a database actor might have: its jobs go
/// straight to the queue, where no concurrency-runtime hook sees them. It is a task executor too,
/// for a task that prefers it (`Task(executorPreference:)`).
@available(EffectsVirtualTime, *)
package final class QueueExecutor: SerialExecutor, TaskExecutor {
  private let queue: DispatchQueue

  package init(label: String) {
    queue = DispatchQueue(label: label)
  }

  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedSerialExecutor()
    let taskExecutor = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(isolatedTo: executor, taskExecutor: taskExecutor) }
  }
}
