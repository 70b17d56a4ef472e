import Effects
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The tasks each open virtual-time scope has run, so that a task of a scope resumed from
/// anywhere — another thread, a timer, I/O — is still recognised as the scope's.
///
/// A task is recorded the first time the scope queues one of its jobs, by address and by the
/// runtime's task id: a finished task's address may be reused by a new task, whose id differs, so
/// a stale record never claims another test's task.
enum ScopeTasks {
  private typealias TaskID = @convention(thin) (UnownedJob) -> UInt64
  private typealias GetCurrent = @convention(thin) () -> UnsafeMutableRawPointer?

  private static let taskID: TaskID? = symbol("swift_task_getJobTaskId", as: TaskID.self)
  private static let getCurrent: GetCurrent? = symbol("swift_task_getCurrent", as: GetCurrent.self)

  private struct Owner {
    let scope: VirtualExecutor
    let id: UInt64
  }

  /// Open scopes' tasks, by address.
  private static let owners = Locked<[UInt: Owner]>([:])

  /// Whether the runtime functions this needs were found.
  static var isAvailable: Bool {
    taskID != nil && getCurrent != nil
  }

  /// The address of the current task, if any.
  static var currentTask: UInt? {
    currentTaskJob.map(address(of:))
  }

  /// The current task as a job, if any.
  static var currentTaskJob: UnownedJob? {
    getCurrent?().map { unsafeBitCast($0, to: UnownedJob.self) }
  }

  /// The job's address, which is the task's when the job is a task.
  static func address(of job: UnownedJob) -> UInt {
    UInt(bitPattern: unsafeBitCast(job, to: UnsafeMutableRawPointer.self))
  }

  /// Whether `job` is a task (rather than an actor's turn or a continuation job): the kind in the
  /// low byte of the job's flags, which follow the heap-object header and two scheduler words
  /// (`swift::Job` in the runtime's ABI; kind 0 is `JobKind::Task`).
  static func isTask(_ job: UnownedJob) -> Bool {
    let pointer = unsafeBitCast(job, to: UnsafeRawPointer.self)
    let flags = pointer.load(fromByteOffset: 4 * MemoryLayout<UnsafeRawPointer>.size, as: UInt32.self)
    return flags & 0xFF == 0
  }

  /// The runtime's id of `job`'s task.
  static func id(of job: UnownedJob) -> UInt64? {
    taskID?(job)
  }

  /// Records the task at `address` with `id` as `scope`'s.
  static func adopt(address: UInt, id: UInt64, by scope: VirtualExecutor) {
    owners.withLock { $0[address] = Owner(scope: scope, id: id) }
  }

  /// The open scope that ran `job`'s task, if any.
  static func owner(of job: UnownedJob) -> VirtualExecutor? {
    guard let taskID, isTask(job) else { return nil }
    let address = address(of: job)
    let id = taskID(job)
    return owners.withLock { owners in
      guard let owner = owners[address], owner.id == id else { return nil }
      return owner.scope
    }
  }

  /// Forgets `scope`'s tasks.
  static func release(_ scope: VirtualExecutor) {
    owners.withLock { owners in
      owners = owners.filter { $0.value.scope !== scope }
    }
  }

  private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
    guard let pointer = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
    return unsafeBitCast(pointer, to: type)
  }
}
