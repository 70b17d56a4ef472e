import Effects
import Foundation

// Which tasks belong to a virtual-time scope: the driver, the tasks the scope started (held only
// while they run), and tasks it adopted when they first reached it from outside. A task belongs to
// the scope that started it; another scope that resumes it hands it back.

@available(EffectsVirtualTime, *)
extension VirtualExecutor {
  /// Records the task that opens the scope as the scope's, so that wherever it is queued from
  /// next — even by a `Task.yield()` on a thread of the default executor — it comes to the scope.
  func adoptDriver(_ job: UnownedJob) {
    condition.lock()
    driverID = ScopeTasks.id(of: job) ?? 0
    if let id = ScopeTasks.id(of: job) { adopt(job, address: ScopeTasks.address(of: job), id: id) }
    unlockStartingLane()
  }

  /// Whose a job queued from inside the scope is.
  enum Claim {
    /// The scope's: its own task, a task it started, or a job that is not a task (an actor's
    /// turn, a continuation).
    case ours
    /// A task of another open scope (another test's), resumed from this one: it goes to its
    /// owner, which reports it as resumed from outside.
    case another(VirtualExecutor)
    /// A task no open scope owns, started before this scope opened (by another test, or left over
    /// from an earlier scope): not this scope's, so it runs on the real executor, and this scope
    /// reports that it resumed it.
    case none
  }

  /// Decides whose `job` is, adopting a task the first time the scope queues one of its jobs. A
  /// task is the scope that started it's: a scope never adopts another's task because it resumed
  /// it, so it never waits for it, reports it as its own leftover, or cancels it. Called with the
  /// lock held, which the caller drops with ``unlockStartingLane()``.
  func claim(_ job: UnownedJob) -> Claim {
    assert(!laneStartsOnUnlock, "a claim's caller unlocked without unlockStartingLane()")
    guard ScopeTasks.isTask(job), let id = ScopeTasks.id(of: job) else { return .ours }
    let address = ScopeTasks.address(of: job)
    if adopted.contains(address, id: id) { return .ours }
    if let owner = ScopeTasks.owner(address: address, id: id), owner !== self { return .another(owner) }
    // The runtime numbers tasks in the order they are made: one older than the test's own task
    // (the driver) was not made by the scope.
    if address != driver, id < driverID {
      recordEscapeLocked(
        VirtualTimeWording.resumedATaskNotOfTheScope()
      )
      return .none
    }
    adopt(job, address: address, id: id)
    return .ours
  }

  /// Records `job`'s task as the scope's. Called with the lock held.
  func adopt(_ job: UnownedJob, address: UInt, id: UInt64) {
    adopted.insert(address, id: id)
    ScopeTasks.adopt(address: address, id: id, by: self)
    // Only tasks created after the test's own task are the test's to report at the end.
    if address != driver, id > driverID, ScopeTasks.isUnstructuredTask(job) {
      ScopeTasks.retain(address)
      // The task is queued for the first time: by the code that made it, on this thread.
      let start = origins.count
      let count = Platform.captureReturnAddresses(maximumDepth: Self.originDepth, into: &origins)
      started.append(StartedTask(address: address, id: id, origin: start..<start + count))
      if started.count >= pruneAt {
        for address in pruneStarted() {
          if (endedTasks.count - endedHead) % Self.releasedPerJob == 0 { queueRelease() }
          endedTasks.append(address)
        }
      }
    }
  }

  /// How many frames of the stack that starts a task are kept: enough to pass the runtime's and
  /// this library's own frames (ten to twelve, measured) and reach the code that called
  /// `Task {}`, or the code that called an API of this library that starts one. Each frame costs
  /// about 0.1 µs to capture.
  static let originDepth = 16

  /// Takes the started tasks that have ended out of the scope's records, answering their
  /// addresses, still retained, for the caller to release: so that a scope holds only the tasks
  /// still running (a loop starting 300,000 short tasks keeps a few thousand alive, not all of
  /// them). Called with the lock held: by ``adopt(_:address:id:)`` when ``started`` has doubled
  /// since the last pass (amortised O(1) per task), and at the scope's end
  /// (``releaseEndedTasks()``).
  ///
  /// The caller releases them where no code under test is on the stack: releasing a task's last
  /// reference frees its result, whose `deinit` may run any code, such as start a task or take a
  /// lock. Released here, under the scope's lock, that code hung on the lock when it started a
  /// task; released after it, inside the `Task {}` whose enqueue called the pass, it ran under
  /// whatever lock that code's caller held. A pass during an enqueue hands them to the serial
  /// lane, as jobs of the scope (``endedTasks``): an advance waits for them, a task a `deinit`
  /// starts is the scope's, and the watchdog reports a `deinit` that blocks.
  ///
  /// The running tasks are moved down in place, in ``started`` and in ``origins``: where none has
  /// ended, nothing is copied or allocated. (Copying both into new arrays on every pass cost a
  /// sleeper 0.2 µs at 100,000 in `sleepers-tasks.1e5.effects`, where every task is still
  /// running.)
  func pruneStarted() -> [UInt] {
    var ended: [UInt] = []
    var kept = 0
    var keptOrigins = 0
    for index in started.indices {
      var task = started[index]
      if ScopeTasks.hasEnded(task.address) == true {
        adopted.remove(task.address)
        ScopeTasks.forget(task.address, id: task.id, by: self)
        ended.append(task.address)
        continue
      }
      let count = task.origin.count
      if task.origin.lowerBound != keptOrigins {
        for offset in 0..<count { origins[keptOrigins + offset] = origins[task.origin.lowerBound + offset] }
        task.origin = keptOrigins..<keptOrigins + count
      }
      keptOrigins += count
      if index != kept { started[kept] = task }
      kept += 1
    }
    started.removeLast(started.count - kept)
    origins.removeLast(origins.count - keptOrigins)
    pruneAt = max(Self.firstPrune, 2 * kept)
    return ended
  }

  /// How many ended tasks one job of the serial lane releases: a job the watchdog times, so that
  /// thousands of `deinit`s, each starting tasks, are never taken for one job that blocks.
  static let releasedPerJob = 64

  /// Releases, now, every started task that has ended: at the scope's end, on the task that opened
  /// it, where only this library's frames are on the stack (the test's body has returned). What
  /// their results' `deinit`s start is then the scope's, and its end waits for it and reports what
  /// is left. Returns whether it released any.
  ///
  /// Not a job of the serial lane, as during the scope: that started the lane's thread at the end
  /// of most `@MainActor` tests, and doubled the cost of a case in the `suite` benchmark (23 →
  /// 46 µs). The test's own task is where the last reference would have gone without the scope
  /// holding one.
  func releaseEndedTasks() -> Bool {
    condition.lock()
    let ended = started.isEmpty ? [] : pruneStarted()
    condition.unlock()
    for address in ended { ScopeTasks.release(address) }
    return !ended.isEmpty
  }

  /// Counts one more job of the serial lane releasing ``endedTasks``, starting the lane when it
  /// has not started. Called with the lock held, before the first address of each
  /// ``releasedPerJob``.
  private func queueRelease() {
    inFlight += 1
    condition.signal()
    if !laneStarted {
      laneStarted = true
      laneStartsOnUnlock = true
    }
  }

  /// Unlocks, then starts the serial lane's thread if ``pruneStarted()`` started the lane.
  func unlockStartingLane() {
    guard laneStartsOnUnlock else {
      condition.unlock()
      return
    }
    laneStartsOnUnlock = false
    condition.unlock()
    startLaneThread(generation: 0)
  }

  /// Releases the first of ``endedTasks``: one job of the serial lane, run by
  /// `loop(generation:)` on its thread between two jobs, with the lock held on entry and on
  /// return. It takes what is over a whole number of ``releasedPerJob`` (or that many), so that
  /// as many jobs stay counted as the rest needs.
  func releaseEndedTasksLocked() {
    let remainder = (endedTasks.count - endedHead) % Self.releasedPerJob
    let end = endedHead + (remainder == 0 ? Self.releasedPerJob : remainder)
    let taken = Array(endedTasks[endedHead..<end])
    endedHead = end
    if endedHead == endedTasks.count {
      endedTasks.removeAll(keepingCapacity: true)
      endedHead = 0
    }
    condition.unlock()
    for address in taken { ScopeTasks.release(address) }
    condition.lock()
  }

  /// How many started tasks the scope holds alive now.
  var heldTasks: Int {
    condition.lock()
    defer { condition.unlock() }
    return started.count
  }

  /// How many started tasks the scope holds before it first looks for ended ones.
  static let firstPrune = 1_024

  // MARK: The end of the scope

  /// The unstructured tasks the scope started that have not ended; nil when this runtime's task
  /// layout is not known, so nothing can be said.
  func unfinishedTasks() -> [StartedTask]? {
    condition.lock()
    let tasks = started
    condition.unlock()
    var unfinished: [StartedTask] = []
    for task in tasks {
      guard let ended = ScopeTasks.hasEnded(task.address) else { return nil }
      if !ended { unfinished.append(task) }
    }
    return unfinished
  }

  /// The stack that started the task at `address`, if the scope started it and holds it still:
  /// kept by a caller that names the task later, after the task may have ended and been pruned.
  func originStack(ofTaskAt address: UInt) -> [UInt] {
    condition.lock()
    defer { condition.unlock() }
    guard let task = started.last(where: { $0.address == address }), task.origin.upperBound <= origins.count else {
      return []
    }
    return Array(origins[task.origin])
  }

  /// Where the code under test started `task`: the first frame of its stack that is the code's,
  /// not the runtime's or this library's. Nil where the platform cannot say.
  func origin(of task: StartedTask) -> FailureLocation? {
    // Looked up again: tasks started since `task` was copied may have pruned the list, and moved
    // its stack within the buffer.
    condition.lock()
    var stack: [UInt] = []
    if let current = started.first(where: { $0.address == task.address && $0.id == task.id }),
      current.origin.upperBound <= origins.count
    {
      stack = Array(origins[current.origin])
    }
    condition.unlock()
    return ReadSite.firstFrameOfCodeUnderTest(in: stack)
  }
}

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

/// Tasks by address: each with the runtime id it had when it was recorded (an address is reused
/// once its task is freed, an id never), and the address of its owner, if the table keeps one.
///
/// Every job a scope queues is looked up here, so the table is made for the lookup that misses the
/// cache: one flat array, open addressing with linear probing, an entry's address, id and owner
/// side by side. A `Dictionary` keeps its keys, its values and its occupancy in three arrays, so a
/// lookup in a table too large for the cache took three misses. Measured in
/// `sleepers-tasks.1e5.effects` and `sleepers-group.1e5.effects` (see `Benchmarks/README.md`).
///
/// The table is not generic, and its entries hold no reference: three plain words. Users build
/// this library in debug (`swift test`), where generic code is not specialised. A generic table
/// asked the runtime for its entry's metadata, and retained and released the owner, at every step
/// of every probe: with a scan at each scope's end, that made the debug suite of
/// `Benchmarks/Suites` 6.8 times slower (#40).
struct TaskTable {
  private struct Entry {
    /// 0 where the entry is free: no task is at address 0.
    var address: UInt
    var id: UInt64
    var owner: UnsafeMutableRawPointer?
  }

  /// A power of two, at least twice ``count``.
  private var entries: [Entry]
  /// How many tasks the table holds.
  private(set) var count = 0

  init() {
    self.init(capacityFor: 0)
  }

  private init(capacityFor count: Int) {
    var capacity = 16
    while capacity < count * 2 { capacity *= 2 }
    entries = Array(repeating: Entry(address: 0, id: 0, owner: nil), count: capacity)
  }

  /// Whether the task at `address` was recorded with `id`.
  func contains(_ address: UInt, id: UInt64) -> Bool {
    guard let index = index(of: address) else { return false }
    return entries[index].id == id
  }

  /// The owner recorded with the task at `address`, if it was recorded with `id` (not an earlier
  /// task at the same address) and with an owner.
  func owner(of address: UInt, id: UInt64) -> UnsafeMutableRawPointer? {
    guard let index = index(of: address), entries[index].id == id else { return nil }
    return entries[index].owner
  }

  /// Records the task at `address` (not 0) with `id` and `owner`, replacing what was recorded
  /// there.
  mutating func insert(_ address: UInt, id: UInt64, owner: UnsafeMutableRawPointer? = nil) {
    precondition(address != 0, "a task is never at address 0")
    if (count + 1) * 2 > entries.count { grow() }
    let mask = entries.count - 1
    var index = home(of: address, mask: mask)
    while entries[index].address != 0, entries[index].address != address {
      index = (index + 1) & mask
    }
    if entries[index].address == 0 { count += 1 }
    entries[index] = Entry(address: address, id: id, owner: owner)
  }

  /// Forgets the task at `address`, if it is recorded.
  mutating func remove(_ address: UInt) {
    guard let index = index(of: address) else { return }
    remove(at: index)
  }

  /// Forgets the task at `address` if it is recorded with `id` and `owner`: not when it is
  /// another task, or another owner's.
  mutating func remove(_ address: UInt, id: UInt64, owner: UnsafeMutableRawPointer?) {
    guard let index = index(of: address), entries[index].id == id, entries[index].owner == owner else { return }
    remove(at: index)
  }

  private mutating func remove(at index: Int) {
    var hole = index
    count -= 1
    // Backward-shift deletion: every entry after the hole in its run that may move to the hole
    // (its home is not between the hole and itself) moves, so no lookup ever stops early.
    let mask = entries.count - 1
    var next = (hole + 1) & mask
    while entries[next].address != 0 {
      let home = home(of: entries[next].address, mask: mask)
      if (next &- home) & mask >= (next &- hole) & mask {
        entries[hole] = entries[next]
        hole = next
      }
      next = (next + 1) & mask
    }
    entries[hole] = Entry(address: 0, id: 0, owner: nil)
  }

  /// Calls `body` with the address and id of every task recorded.
  func forEach(_ body: (_ address: UInt, _ id: UInt64) -> Void) {
    for index in entries.indices where entries[index].address != 0 {
      body(entries[index].address, entries[index].id)
    }
  }

  private func index(of address: UInt) -> Int? {
    // 0 marks a free entry: no task is there.
    guard address != 0 else { return nil }
    let mask = entries.count - 1
    var index = home(of: address, mask: mask)
    while true {
      let found = entries[index].address
      if found == address { return index }
      if found == 0 { return nil }
      index = (index + 1) & mask
    }
  }

  /// Where the search for `address` starts: Fibonacci hashing of the address without its low
  /// bits, which are the same for every heap object.
  private func home(of address: UInt, mask: Int) -> Int {
    Int(truncatingIfNeeded: ((address >> 4) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
  }

  private mutating func grow() {
    let old = entries
    self = TaskTable(capacityFor: entries.count)
    for entry in old where entry.address != 0 { insert(entry.address, id: entry.id, owner: entry.owner) }
  }
}
