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
  private typealias TaskID = @convention(thin) (UnownedJob) -> UInt64
  private typealias GetCurrent = @convention(thin) () -> UnsafeMutableRawPointer?

  private typealias Cancel = @convention(thin) (UnsafeMutableRawPointer) -> Void
  private typealias IsCancelled = @convention(thin) (UnsafeMutableRawPointer) -> Bool
  private typealias Retain = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer
  private typealias Release = @convention(c) (UnsafeMutableRawPointer) -> Void

  private static let taskID: TaskID? = symbol("swift_task_getJobTaskId", as: TaskID.self)
  private static let getCurrent: GetCurrent? = symbol("swift_task_getCurrent", as: GetCurrent.self)
  private static let cancelTask: Cancel? = symbol("swift_task_cancel", as: Cancel.self)
  private static let isCancelled: IsCancelled? = symbol("swift_task_isCancelled", as: IsCancelled.self)
  private static let retainObject: Retain? = symbol("swift_retain", as: Retain.self)
  private static let releaseObject: Release? = symbol("swift_release", as: Release.self)

  /// Open scopes' tasks, by address, each with its scope (unretained: see ``release(_:tasks:)``).
  private static let owners = Locked(TaskTable())

  /// The runtime functions this needs.
  static let requiredFunctions = ["swift_task_getJobTaskId", "swift_task_getCurrent", "swift_retain", "swift_release"]

  /// Whether the runtime functions this needs were found.
  static var isAvailable: Bool {
    taskID != nil && getCurrent != nil && retainObject != nil && releaseObject != nil
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

  /// Whether `job` is a task that no parent awaits — a `Task {}` or `Task.detached {}`, not a child
  /// of `async let` or a task group (bit 24 of the flags, `Task_IsChildTask`). A child ends before
  /// its parent does, so a scope checks only these at its end.
  static func isUnstructuredTask(_ job: UnownedJob) -> Bool {
    guard isTask(job) else { return false }
    let pointer = unsafeBitCast(job, to: UnsafeRawPointer.self)
    let flags = pointer.load(fromByteOffset: 4 * MemoryLayout<UnsafeRawPointer>.size, as: UInt32.self)
    return flags & (1 << 24) == 0
  }

  // MARK: Where a suspended task waits

  /// The resume points of the async calls the task at `address` is suspended in, innermost first,
  /// at most `maximum`: for a task asleep in `clock.sleep(for:)`, the library's frames, then the
  /// line of the code under test that awaited the sleep, then its callers. Nil when the task's
  /// layout is not the one this code knows.
  ///
  /// The task must be suspended on a continuation that no one can resume meanwhile (the caller
  /// holds it: taken out of the scheduler's queue), so that its contexts stay as they are. A
  /// suspended task's `ResumeContext` (the word after the 64-byte job header) is the
  /// continuation's context, and its `ResumeTask` (the job's last word) is that context's
  /// `ResumeParent`, as `swift_continuation_init` sets them: checked before anything is followed.
  /// From there each async context holds its parent and the function that resumes it (its first
  /// two words, in the runtime's ABI).
  static func resumePoints(ofSuspendedTask address: UInt, maximum: Int = 32) -> [UInt]? {
    let word = MemoryLayout<UInt>.size
    guard word == 8, let task = UnsafeRawPointer(bitPattern: address) else { return nil }
    let resumeTask = task.load(fromByteOffset: 7 * word, as: UInt.self)
    let first = task.load(fromByteOffset: 8 * word, as: UInt.self)
    guard first % UInt(word) == 0, let context = UnsafeRawPointer(bitPattern: first),
      resumeTask != 0, context.load(fromByteOffset: word, as: UInt.self) == resumeTask
    else { return nil }
    return resumePoints(from: context, maximum: maximum)
  }

  /// ``resumePoints(ofSuspendedTask:maximum:)`` of the task suspended on `continuation` (a
  /// continuation is its task's address).
  static func resumePoints(ofSuspendedOn continuation: UnsafeContinuation<Void, any Error>) -> [UInt]? {
    resumePoints(ofSuspendedTask: UInt(bitPattern: unsafeBitCast(continuation, to: UnsafeRawPointer.self)))
  }

  /// The resume points of the task at `address`, whose job the caller holds, queued and not run
  /// yet (a task resumed from a wait on another task, say): suspended, so its contexts stay as
  /// they are until the job runs. Its `ResumeContext` is where it suspended; that context's
  /// resume function must lie in a loaded image before anything is followed. Nil when the layout
  /// is not the one this code knows.
  static func resumePoints(ofQueuedTask address: UInt, maximum: Int = 32) -> [UInt]? {
    let word = MemoryLayout<UInt>.size
    guard word == 8, let task = UnsafeRawPointer(bitPattern: address) else { return nil }
    let first = task.load(fromByteOffset: 8 * word, as: UInt.self)
    guard first % UInt(word) == 0, let context = UnsafeRawPointer(bitPattern: first),
      Platform.isInLoadedImage(context.load(fromByteOffset: word, as: UInt.self))
    else { return nil }
    return resumePoints(from: context, maximum: maximum)
  }

  /// The resume function of `context` and of each of its parents, innermost first, at most
  /// `maximum`; each must lie in a loaded image, or the walk stops there.
  private static func resumePoints(from context: UnsafeRawPointer, maximum: Int) -> [UInt] {
    let word = MemoryLayout<UInt>.size
    var points: [UInt] = []
    var next: UnsafeRawPointer? = context
    while let current = next, points.count < maximum {
      let resume = current.load(fromByteOffset: word, as: UInt.self)
      guard Platform.isInLoadedImage(resume) else { break }
      points.append(resume)
      let parent = current.load(as: UInt.self)
      next = parent % UInt(word) == 0 ? UnsafeRawPointer(bitPattern: parent) : nil
    }
    return points
  }

  // MARK: Task status

  /// Where a task keeps its status flags (`ActiveTaskStatus`, whose first 32 bits are its flags
  /// in every runtime layout): at one of two offsets into the task's private storage, depending on
  /// the runtime's version. Found once, on a running task, by `calibrate(on:)`; nil until then, or
  /// when neither offset holds what a running task's status must hold.
  private static let statusOffset = Locked<Int??>(.none)

  /// The candidate offsets: the private storage follows the 64-byte job header and two words,
  /// and holds the status either first or after two words of exclusivity state.
  private static let candidateOffsets = [96, 80]
  private static let cancelledFlag: UInt32 = 0x100
  private static let runningFlag: UInt32 = 0x800
  private static let enqueuedFlag: UInt32 = 0x1000
  private static let dependencyFlag: UInt32 = 0x4000
  private static let completeFlag: UInt32 = 0x2000

  /// Finds where `task` — running now, on this thread — keeps its status, once per process: the
  /// word must be non-zero, hold the task's priority in its low byte (as the job flags do), not
  /// say "complete", and agree with the runtime on whether the task is cancelled. Returns whether
  /// task status can be read on this runtime.
  static func calibrate(on task: UnownedJob) -> Bool {
    statusOffset.withLock { offset in
      guard offset == nil else { return }
      guard MemoryLayout<UnsafeRawPointer>.size == 8, let isCancelled else {
        offset = .some(nil)
        return
      }
      let pointer = unsafeBitCast(task, to: UnsafeMutableRawPointer.self)
      let flags = pointer.load(fromByteOffset: 32, as: UInt32.self)
      let cancelled = isCancelled(pointer)
      offset = .some(
        candidateOffsets.first { candidate in
          let word = pointer.load(fromByteOffset: candidate, as: UInt64.self)
          let status = UInt32(truncatingIfNeeded: word)
          return word != 0 && status & 0xFF == (flags >> 8) & 0xFF && status & completeFlag == 0
            && (status & cancelledFlag != 0) == cancelled
        }
      )
    }
    return readableStatusOffset != nil
  }

  /// The offset of a task's status, when it can be read (a test can force it unreadable).
  private static var readableStatusOffset: Int? {
    guard VirtualTimeAvailability.forced?.taskStatusUnreadable != true else { return nil }
    return statusOffset.snapshot ?? nil
  }

  /// Whether the task at `address` (kept alive by `retain(_:)`) has ended; nil when this runtime's
  /// layout is not known.
  static func hasEnded(_ address: UInt) -> Bool? {
    guard let offset = readableStatusOffset, let pointer = UnsafeRawPointer(bitPattern: address)
    else { return nil }
    return pointer.load(fromByteOffset: offset, as: UInt32.self) & completeFlag != 0
  }

  /// Whether the task at `address` (alive) is suspended waiting on something — another task's
  /// value, a continuation, a group — rather than running or queued: its status says it has a
  /// dependency, and neither runs nor is queued. False when that cannot be told (a layout this code
  /// does not know, or a runtime that does not record dependencies): then nothing is inferred.
  static func isWaitingOnADependency(_ address: UInt) -> Bool {
    guard let offset = readableStatusOffset, let pointer = UnsafeRawPointer(bitPattern: address) else { return false }
    let status = pointer.load(fromByteOffset: offset, as: UInt32.self)
    return status & dependencyFlag != 0 && status & (runningFlag | enqueuedFlag | completeFlag) == 0
  }

  /// Cancels the task at `address` (kept alive by `retain(_:)`); false when the runtime does not
  /// show it cancelled afterwards — a layout this code does not know, so no status can be trusted.
  static func cancel(_ address: UInt) -> Bool {
    guard let cancelTask, let offset = readableStatusOffset,
      let pointer = UnsafeMutableRawPointer(bitPattern: address)
    else { return false }
    cancelTask(pointer)
    return pointer.load(fromByteOffset: offset, as: UInt32.self) & cancelledFlag != 0
  }

  /// Whether the task at `address` (alive: suspended, or kept by `retain(_:)`) is cancelled.
  static func isCancelled(_ address: UInt) -> Bool {
    guard let isCancelled, let pointer = UnsafeMutableRawPointer(bitPattern: address) else { return false }
    return isCancelled(pointer)
  }

  /// Keeps the task at `address` alive until `release(_:)`, so its status can still be read.
  static func retain(_ address: UInt) {
    guard let retainObject, let pointer = UnsafeMutableRawPointer(bitPattern: address) else { return }
    _ = retainObject(pointer)
  }

  /// Balances `retain(_:)`.
  static func release(_ address: UInt) {
    guard let releaseObject, let pointer = UnsafeMutableRawPointer(bitPattern: address) else { return }
    releaseObject(pointer)
  }

  /// The runtime's id of `job`'s task.
  static func id(of job: UnownedJob) -> UInt64? {
    taskID?(job)
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
    guard let taskID, isTask(job) else { return nil }
    return owner(address: address(of: job), id: taskID(job))
  }

  /// Whether an open scope ran `job`'s task: ``owner(of:)`` without retaining the scope.
  static func isOwned(_ job: UnownedJob) -> Bool {
    guard let taskID, isTask(job) else { return false }
    let address = address(of: job)
    let id = taskID(job)
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

  private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
    guard let pointer = Platform.symbol(named: name) else { return nil }
    return unsafeBitCast(pointer, to: type)
  }
}
