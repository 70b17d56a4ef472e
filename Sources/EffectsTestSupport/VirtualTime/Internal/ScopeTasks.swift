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
/// A task is recorded the first time the scope queues one of its jobs, and retained until the
/// scope closes, so that its address cannot be reused by another task meanwhile.
enum ScopeTasks {
  private typealias Retain = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer
  private typealias Release = @convention(c) (UnsafeMutableRawPointer) -> Void

  private static let retain: Retain? = symbol("swift_retain", as: Retain.self)
  private static let release: Release? = symbol("swift_release", as: Release.self)

  /// Open scopes' tasks, by address.
  private static let owners = Locked<[UInt: VirtualExecutor]>([:])

  /// Whether the runtime functions this needs were found.
  static var isAvailable: Bool {
    retain != nil && release != nil
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

  /// Records `job`'s task as `scope`'s, if it is a task not recorded yet.
  static func adopt(_ job: UnownedJob, by scope: VirtualExecutor) {
    guard let retain, isTask(job) else { return }
    let address = address(of: job)
    owners.withLock { owners in
      guard owners[address] == nil else { return }
      owners[address] = scope
      _ = retain(UnsafeMutableRawPointer(bitPattern: address)!)
    }
  }

  /// The open scope that ran `job`'s task, if any.
  static func owner(of job: UnownedJob) -> VirtualExecutor? {
    let address = address(of: job)
    return owners.withLock { $0[address] }
  }

  /// Forgets `scope`'s tasks, releasing them.
  static func release(_ scope: VirtualExecutor) {
    let released: [UInt] = owners.withLock { owners in
      let mine = owners.filter { $0.value === scope }.map { $0.key }
      for address in mine { owners[address] = nil }
      return mine
    }
    guard let release else { return }
    for address in released {
      release(UnsafeMutableRawPointer(bitPattern: address)!)
    }
  }

  fileprivate static func symbol<T>(_ name: String, as type: T.Type) -> T? {
    guard let pointer = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
    return unsafeBitCast(pointer, to: type)
  }
}

extension ScopeTasks {
  private typealias GetCurrent = @convention(thin) () -> UnsafeMutableRawPointer?

  private static let getCurrent: GetCurrent? = symbol("swift_task_getCurrent", as: GetCurrent.self)

  /// The address of the current task, if any.
  static var currentTask: UInt? {
    getCurrent?().map { UInt(bitPattern: $0) }
  }
}
