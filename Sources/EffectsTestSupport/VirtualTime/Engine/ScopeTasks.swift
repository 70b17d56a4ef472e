import Effects
import Foundation

/// The tasks each open virtual-time scope has run, so that a task of a scope resumed from
/// anywhere — another thread, a timer, I/O — is still recognised as the scope's.
///
/// A task is recorded the first time the scope queues one of its jobs, by address and by the
/// runtime's task id: a finished task's address may be reused by a new task, whose id differs, so
/// a stale record never claims another test's task.
@available(EffectsVirtualTime, *)
enum ScopeTasks {
  /// Open scopes' tasks, by address, each with its scope (unretained: see ``release(_:tasks:)``).
  private static let owners = Locked(TaskTable())

  /// The address of the current task, if any.
  static var currentTask: UInt? {
    currentTaskJob.map(address(of:))
  }

  /// The current task as a job, if any.
  static var currentTaskJob: UnownedJob? {
    RuntimeDoor.currentTaskJob
  }

  /// The job's address, which is the task's when the job is a task.
  static func address(of job: UnownedJob) -> UInt {
    RuntimeDoor.address(of: job)
  }

  /// Whether `job` is a task, not an actor's turn or a continuation job.
  static func isTask(_ job: UnownedJob) -> Bool {
    RuntimeDoor.isTask(job)
  }

  /// Whether `job` is a task that no parent awaits — a `Task {}` or `Task.detached {}`, not a child
  /// of `async let` or a task group. A child ends before its parent does, so a scope checks only
  /// these at its end.
  static func isUnstructuredTask(_ job: UnownedJob) -> Bool {
    RuntimeDoor.isUnstructuredTask(job)
  }

  // MARK: Where a suspended task waits

  /// The resume points of the async calls the task at `address` is suspended in, innermost first:
  /// for a task asleep in `clock.sleep(for:)`, the library's frames, then the line of the code
  /// under test that awaited the sleep, then its callers. Nil where they cannot be read.
  static func resumePoints(ofSuspendedTask address: UInt, maximum: Int = 32) -> [UInt]? {
    RuntimeDoor.resumePoints(ofSuspendedTask: address, maximum: maximum)
  }

  /// ``resumePoints(ofSuspendedTask:maximum:)`` of the task suspended on `continuation`.
  static func resumePoints(ofSuspendedOn continuation: UnsafeContinuation<Void, any Error>) -> [UInt]? {
    resumePoints(ofSuspendedTask: RuntimeDoor.taskAddress(of: continuation))
  }

  /// The resume points of the task at `address`, whose job the caller holds, queued and not run
  /// yet. Nil where they cannot be read.
  static func resumePoints(ofQueuedTask address: UInt, maximum: Int = 32) -> [UInt]? {
    RuntimeDoor.resumePoints(ofQueuedTask: address, maximum: maximum)
  }

  // MARK: Task status

  /// Whether the task at `address` (kept alive by `retain(_:)`) has ended; nil when this runtime's
  /// layout is not known.
  static func hasEnded(_ address: UInt) -> Bool? {
    RuntimeDoor.status(at: address)?.isComplete
  }

  /// Whether the task at `address` (alive) is suspended waiting on something — another task's
  /// value, a continuation, a group — rather than running or queued. False when that cannot be
  /// told: then nothing is inferred.
  static func isWaitingOnADependency(_ address: UInt) -> Bool {
    guard let status = RuntimeDoor.status(at: address) else { return false }
    return status.hasDependency && !status.isRunning && !status.isEnqueued && !status.isComplete
  }

  /// Cancels the task at `address` (kept alive by `retain(_:)`); false when the runtime does not
  /// show it cancelled afterwards — a layout this code does not know, so no status can be trusted.
  static func cancel(_ address: UInt) -> Bool {
    guard RuntimeDoor.status(at: address) != nil, RuntimeDoor.cancelTask(at: address) else { return false }
    return RuntimeDoor.status(at: address)?.isCancelled == true
  }

  /// Whether the task at `address` (alive: suspended, or kept by `retain(_:)`) is cancelled.
  static func isCancelled(_ address: UInt) -> Bool {
    RuntimeDoor.isCancelled(at: address) ?? false
  }

  /// Keeps the task at `address` alive until `release(_:)`, so its status can still be read.
  static func retain(_ address: UInt) {
    RuntimeDoor.retain(address)
  }

  /// Balances `retain(_:)`.
  static func release(_ address: UInt) {
    RuntimeDoor.release(address)
  }

  /// The runtime's id of `job`'s task.
  static func id(of job: UnownedJob) -> UInt64? {
    RuntimeDoor.taskID(of: job)
  }

  /// Records the task at `address` with `id` as `scope`'s.
  static func adopt(address: UInt, id: UInt64, by scope: VirtualExecutor) {
    let owner = Unmanaged.passUnretained(scope).toOpaque()
    owners.withLock { $0.insert(address, id: id, owner: owner) }
  }

  /// The open scope that ran the task at `address` with `id`, if any.
  static func owner(address: UInt, id: UInt64) -> VirtualExecutor? {
    owners.withLock { owners in
      owners.owner(of: address, id: id).map { Unmanaged<VirtualExecutor>.fromOpaque($0).takeUnretainedValue() }
    }
  }

  /// The open scope that ran `job`'s task, if any.
  static func owner(of job: UnownedJob) -> VirtualExecutor? {
    guard isTask(job), let id = id(of: job) else { return nil }
    return owner(address: address(of: job), id: id)
  }

  /// Whether an open scope ran `job`'s task: ``owner(of:)`` without retaining the scope.
  static func isOwned(_ job: UnownedJob) -> Bool {
    guard isTask(job), let id = id(of: job) else { return false }
    let address = address(of: job)
    return owners.withLock { $0.owner(of: address, id: id) != nil }
  }

  /// Forgets the task at `address` with `id`, which has ended, if it is still `scope`'s.
  static func forget(_ address: UInt, id: UInt64, by scope: VirtualExecutor) {
    let owner = Unmanaged.passUnretained(scope).toOpaque()
    owners.withLock { $0.remove(address, id: id, owner: owner) }
  }

  /// Forgets `scope`'s tasks, when it closes: each of `tasks` (the tasks it adopted) that is
  /// still recorded as its. The work is the scope's own tasks, never the process's: a scan of
  /// every open scope's tasks at each scope's end, under this lock, made a debug suite of
  /// parallel cases 6.8 times slower (#40).
  ///
  /// The table holds its scopes unretained: a scope forgets its tasks here before it can be freed,
  /// and a lookup retains the scope it finds before it lets go of the lock.
  static func release(_ scope: VirtualExecutor, tasks: TaskTable) {
    let owner = Unmanaged.passUnretained(scope).toOpaque()
    owners.withLock { owners in
      tasks.forEach { address, id in owners.remove(address, id: id, owner: owner) }
    }
  }

}
