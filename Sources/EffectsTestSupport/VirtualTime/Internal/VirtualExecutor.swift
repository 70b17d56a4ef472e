import Effects
import Foundation

/// The executor of one virtual-time scope: it runs every job of the scope's tasks and knows,
/// exactly, when none is left — the basis of `await TestScheduler.advance(by:)`.
///
/// A scope's jobs run on two lanes, one job at a time on each:
/// - **its own serial thread**, for nonisolated work and default actors (jobs arrive through the
///   runtime's global-enqueue hook, and through ``enqueue(_:)`` as the current task executor,
///   which is where a nonisolated `Task.yield()` sends its wake-up);
/// - **the main queue**, for main-actor work: jobs arrive through ``MainActorProxy`` and run there,
///   in order with every other main-actor job of the process, so main-actor isolation is real.
///
/// One count covers both lanes — a job is counted from the moment it is queued until it has run —
/// so "every task of the scope has reached its next suspension" is "the count is zero", which
/// ``whenIdle(drive:isolation:)`` waits for without polling, yielding, or reading a clock.
///
/// Which jobs belong to the scope ("attribution"), in order:
/// 1. the job is enqueued from inside the scope: from a task carrying ``scope`` (a task-local), or
///    on one of the scope's lanes (a thread-specific marker set while a scope job runs);
/// 2. the job is a task the scope has seen before (``ScopeTasks``), enqueued from anywhere else:
///    a task of the scope resumed from outside it — a real sleep, I/O, another thread — is still
///    run by the scope, but that resumption is an *escape*: the scope could not know it was coming,
///    so it is recorded and reported.
///
/// Every stored `var` is guarded by `condition`.
@available(EffectsVirtualTime, *)
final class VirtualExecutor: TaskExecutor, @unchecked Sendable {
  /// The executor of the scope the current task is in.
  @TaskLocal static var scope: VirtualExecutor?

  private static let lane = Platform.ThreadSpecific()

  /// The executor whose job is running on this thread, if any.
  static var onCurrentThread: VirtualExecutor? {
    guard let pointer = lane.value else { return nil }
    return Unmanaged<VirtualExecutor>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// The open scope the current context belongs to.
  ///
  /// When a task is running, it is that task's scope — its task-local, or the scope that ran it
  /// (a detached task) — whatever lane it runs on: a task outside any scope that runs on a scope's
  /// lane (inside an actor's turn there, say) stays outside. With no task running (an actor's turn
  /// being scheduled, a continuation job), it is the scope of the lane.
  static var current: VirtualExecutor? {
    context(running: ScopeTasks.currentTaskJob)
  }

  private static func context(running task: UnownedJob?) -> VirtualExecutor? {
    if let task {
      if let scope, scope.isOpen { return scope }
      return ScopeTasks.owner(of: task)
    }
    guard let lane = onCurrentThread, lane.isOpen else { return nil }
    return lane
  }

  /// Takes `job` into the open scope it belongs to, on the main lane or the serial one; false when
  /// no open scope takes it (the caller then hands it to the real executor).
  ///
  /// A job queued from inside a scope — a task created or resumed by the scope's code, a hop, an
  /// actor's turn, a continuation job — belongs to that scope. A job queued from outside any scope
  /// (another thread, a timer, I/O) belongs to a scope only when it is a task that scope has run:
  /// that is an escape.
  static func take(_ job: UnownedJob, onMainActor: Bool) -> Bool {
    let running = ScopeTasks.currentTaskJob
    guard let context = context(running: running) else {
      guard ScopeTasks.isTask(job), let owner = ScopeTasks.owner(of: job) else { return false }
      return owner.enqueueEscaped(job, onMainActor: onMainActor)
    }
    if context !== onCurrentThread, let running, ScopeTasks.address(of: running) != context.driver {
      // A task of the scope is running off the scope's lanes: something outside the scope ran it.
      context.recordEscape(
        """
        a task of the scope ran on a thread outside it (inside an actor that code outside the \
        scope was holding, on an actor with its own executor, or under another task executor), \
        where it is not counted
        """
      )
    }
    return onMainActor ? context.enqueueMain(job) : context.enqueueGlobal(job)
  }

  /// An unstructured task the scope started.
  struct StartedTask {
    /// Its address, retained by the scope.
    var address: UInt
    /// The async form that had returned last when the task started (nil: before the first one).
    var startedAfter: CallSite?
  }

  /// Something that reached the scope from outside it.
  struct Escape {
    /// What escaped, for the report.
    var description: String
    /// The async form that had returned (or was running) when it happened.
    var during: CallSite?
  }

  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var head = 0
  /// Main-actor jobs waiting for their turn on the main queue, and whether a turn is scheduled.
  private var mainJobs: [UnownedJob] = []
  private var mainHead = 0
  private var mainDrainScheduled = false
  /// Jobs queued on either lane or running there.
  private var inFlight = 0
  /// How many jobs of the scope have finished: what a wait with ``Patience`` looks at.
  private var finishedJobs: UInt64 = 0
  private var closed = false
  /// Tasks waiting for the count to reach zero.
  private var idleWaiters: [IdleWaiter] = []
  /// The unstructured tasks the scope started, kept alive (retained) until it closes so that its
  /// end can tell which of them never finished.
  private var started: [StartedTask] = []
  /// The size of ``started`` at which it is next pruned of ended tasks.
  private var pruneAt = VirtualExecutor.firstPrune
  /// The serial lane's thread generation: a thread whose generation is not this one has been
  /// replaced (its job blocked the lane) and stops after that job.
  private var laneGeneration = 0
  /// How many jobs the serial lane has started, and whether one is running now: the watchdog
  /// compares them between two looks to find a job that does not return.
  private var laneJobsStarted: UInt64 = 0
  private var laneJobRunning = false
  /// The lane's thread, for the watchdog to read its state.
  private var laneThread: Platform.Thread?
  /// The runtime id of the task that opened the scope: tasks created later have larger ids.
  private var driverID: UInt64 = 0

  private var escapes: [Escape] = []
  /// What the scope has reported that is said once a scope.
  private var reportedOnce: Set<String> = []
  /// The tasks this scope has queued: their runtime ids, by address.
  private var adopted: [UInt: UInt64] = [:]
  /// The last async form that waited for the scope (what an escape happened after).
  private var lastDrive: CallSite?
  /// The task that opened the scope: its own resumptions from outside are not escapes (it waits
  /// for them itself, in order).
  let driver: UInt?
  /// Starts the executor's thread.
  init(driver: UInt?) {
    self.driver = driver
    startLaneThread(generation: 0)
    LaneWatchdog.watch(self)
  }

  private func startLaneThread(generation: Int) {
    let thread = Thread { [self] in loop(generation: generation) }
    thread.name = "swift-effects.VirtualExecutor"
    thread.stackSize = 8 << 20
    thread.start()
  }

  // MARK: Queueing

  /// Queues a job enqueued from inside the scope on the serial lane; false once the scope is
  /// closed (the caller then hands it to the global executor).
  func enqueueGlobal(_ job: UnownedJob) -> Bool {
    condition.lock()
    guard !closed else {
      condition.unlock()
      return false
    }
    switch claim(job) {
    case .ours:
      inFlight += 1
      jobs.append(job)
      condition.signal()
      condition.unlock()
      return true
    case .another(let owner):
      condition.unlock()
      return owner.enqueueEscaped(job, onMainActor: false)
    case .none:
      condition.unlock()
      return false
    }
  }

  /// Queues a job of a known task that was enqueued from outside the scope, recording the escape.
  func enqueueEscaped(_ job: UnownedJob, onMainActor: Bool) -> Bool {
    condition.lock()
    guard !closed else {
      condition.unlock()
      return false
    }
    if ScopeTasks.address(of: job) != driver {
      escapes.append(
        Escape(
          description: """
            a task of the scope was resumed from outside it (by a Task.yield() inside an actor, \
            an actor with its own executor, a real Task.sleep, I/O, a continuation resumed on \
            another thread or queue, or a task that is not part of the scope)
            """,
          during: lastDrive
        )
      )
    }
    condition.unlock()
    if onMainActor {
      return enqueueMain(job)
    }
    return enqueueGlobal(job)
  }

  /// Records the task that opens the scope as the scope's, so that wherever it is queued from
  /// next — even by a `Task.yield()` on a thread of the default executor — it comes to the scope.
  func adoptDriver(_ job: UnownedJob) {
    condition.lock()
    driverID = ScopeTasks.id(of: job) ?? 0
    if let id = ScopeTasks.id(of: job) { adopt(job, address: ScopeTasks.address(of: job), id: id) }
    condition.unlock()
  }

  /// Whose a job queued from inside the scope is.
  private enum Claim {
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
  /// lock held.
  private func claim(_ job: UnownedJob) -> Claim {
    guard ScopeTasks.isTask(job), let id = ScopeTasks.id(of: job) else { return .ours }
    let address = ScopeTasks.address(of: job)
    if adopted[address] == id { return .ours }
    if let owner = ScopeTasks.owner(address: address, id: id), owner !== self { return .another(owner) }
    // The runtime numbers tasks in the order they are made: one older than the test's own task
    // (the driver) was not made by the scope.
    if address != driver, id < driverID {
      recordEscapeLocked(
        """
        the scope resumed a task that is not part of it (one started before the scope opened: by \
        another test running in parallel, or left over from an earlier scope); it runs outside the \
        scope, which does not wait for it
        """
      )
      return .none
    }
    adopt(job, address: address, id: id)
    return .ours
  }

  /// Records `job`'s task as the scope's. Called with the lock held.
  private func adopt(_ job: UnownedJob, address: UInt, id: UInt64) {
    adopted[address] = id
    ScopeTasks.adopt(address: address, id: id, by: self)
    // Only tasks created after the test's own task are the test's to report at the end.
    if address != driver, id > driverID, ScopeTasks.isUnstructuredTask(job) {
      ScopeTasks.retain(address)
      started.append(StartedTask(address: address, startedAfter: lastDrive))
      if started.count >= pruneAt { pruneStarted() }
    }
  }

  /// Releases the started tasks that have ended, so that a scope holds only the tasks still
  /// running: a loop starting 300,000 short tasks keeps a few thousand alive, not all of them.
  /// Called with the lock held, when ``started`` has doubled since the last pass (amortised O(1)
  /// per task).
  private func pruneStarted() {
    var running: [StartedTask] = []
    running.reserveCapacity(started.count)
    for task in started {
      if ScopeTasks.hasEnded(task.address) == true {
        adopted[task.address] = nil
        ScopeTasks.forget(task.address)
        ScopeTasks.release(task.address)
      } else {
        running.append(task)
      }
    }
    started = running
    pruneAt = max(Self.firstPrune, 2 * running.count)
  }

  /// How many started tasks the scope holds alive now.
  var heldTasks: Int {
    condition.lock()
    defer { condition.unlock() }
    return started.count
  }

  /// How many started tasks the scope holds before it first looks for ended ones.
  private static let firstPrune = 1_024

  /// Counts a main-actor job of the scope and runs it on the main queue, as the main actor's
  /// executor would; false once the scope is closed.
  func enqueueMain(_ job: UnownedJob) -> Bool {
    condition.lock()
    guard !closed else {
      condition.unlock()
      return false
    }
    switch claim(job) {
    case .ours: break
    case .another(let owner):
      condition.unlock()
      return owner.enqueueEscaped(job, onMainActor: true)
    case .none:
      condition.unlock()
      return false
    }
    inFlight += 1
    mainJobs.append(job)
    let schedule = !mainDrainScheduled
    mainDrainScheduled = true
    condition.unlock()
    if schedule {
      DispatchQueue.main.async { [self] in drainMain() }
    }
    return true
  }

  /// Runs the scope's main-actor jobs in order, on the main queue, as the main actor would. A
  /// batch of jobs runs per main-queue turn (fewer thread wake-ups); after a batch, the rest
  /// waits for a new turn so that the scope never holds the main queue for long.
  private func drainMain() {
    let previous = Self.lane.value
    Self.lane.set(Unmanaged.passUnretained(self).toOpaque())
    defer { Self.lane.set(previous) }
    for _ in 0..<Self.mainBatch {
      condition.lock()
      guard mainHead < mainJobs.count else {
        mainJobs.removeAll(keepingCapacity: true)
        mainHead = 0
        mainDrainScheduled = false
        condition.unlock()
        return
      }
      let job = mainJobs[mainHead]
      mainHead += 1
      condition.unlock()
      job.runSynchronously(on: MainActorProxy.shared.asUnownedSerialExecutor())
      finished()
    }
    DispatchQueue.main.async { [self] in drainMain() }
  }

  /// How many main-actor jobs of the scope run in one turn of the main queue.
  private static let mainBatch = 64

  /// `TaskExecutor`: jobs sent to the scope's serial lane as the current task executor — the
  /// wake-up of a `Task.yield()` in nonisolated code. (Inside an actor the runtime runs jobs with
  /// no task executor, so a yield there goes to the default executor: an escape.)
  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    if !enqueueGlobal(job) {
      globalConcurrentExecutor.enqueue(job)
    }
  }

  /// Whether `report` is said for the first time in this scope (then it is not said again).
  func claimReport(of report: String) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    return reportedOnce.insert(report).inserted
  }

  /// Records something that reached the scope from outside it, described for the report.
  func recordEscape(_ description: String) {
    condition.lock()
    recordEscapeLocked(description)
    condition.unlock()
  }

  /// ``recordEscape(_:)``, with the lock held.
  private func recordEscapeLocked(_ description: String) {
    escapes.append(Escape(description: description, during: lastDrive))
  }

  // MARK: Waiting

  /// Returns once no job of the scope is queued or running, other than the caller's own (which
  /// suspends, or is the only one left) — or, given a `patience`, once it runs out, or once the
  /// waiting task is cancelled (a test's time limit), as the watchdog's next look finds: then
  /// false.
  ///
  /// `drive` is the async form waiting: escapes that happen after it returns are reported at it.
  @discardableResult
  func whenIdle(
    drive: CallSite?,
    patience: Patience? = nil,
    isolation: isolated (any Actor)? = #isolation
  ) async -> Bool {
    // A job running on one of the scope's lanes is the caller's own: when it is the only one,
    // the scope is idle now.
    let own = Self.onCurrentThread === self ? 1 : 0
    if isIdle(own: own, drive: drive) { return true }
    // Unsafe, not checked, because it pays: the benchmark `callback-steps.1e3.effects`
    // (then "async advance steps over callbacks from @MainActor") measured 1.56 and 1.59 µs per step, against 2.12 and
    // 2.10 µs with a CheckedContinuation. A waiter is resumed once, by whoever removes it from
    // `idleWaiters` under `condition`.
    // The waiting task, whose cancellation the watchdog's looks notice (a cancellation handler
    // would cost an allocation on every wait: the benchmark `callback-steps` counted one per step).
    let task = patience == nil ? nil : ScopeTasks.currentTask
    return await withUnsafeContinuation(isolation: isolation) { (continuation: UnsafeContinuation<Bool, Never>) in
      condition.lock()
      if inFlight - own <= 0 {
        condition.unlock()
        continuation.resume(returning: true)
        return
      }
      idleWaiters.append(
        IdleWaiter(continuation: continuation, patience: patience, task: task, finishedAtLook: finishedJobs)
      )
      condition.unlock()
    }
  }

  /// How long a wait for the scope to be idle goes on before it gives up, judged by what the scope
  /// does, not by the clock alone: a scope slowed by a busy machine is waited for; one that keeps
  /// running jobs without ever being idle is not.
  struct Patience {
    /// How often the wait looks at the scope (real time).
    var interval: Duration
    /// The jobs finished in one interval that show the scope busy rather than starved.
    var busyJobs: UInt64
    /// How many looks in a row must find the scope busy before the wait gives up: a loop that
    /// never suspends (`Task.yield()`) stays busy for ever; real work, however long, ends.
    var busyLooks: Int
    /// The longest wait, in real time, for a scope that is not busy (a job that never returns);
    /// nil: no limit (the lane's watchdog deals with a job that never returns).
    var limit: Duration?

    /// How long the busy streak lasts before the wait gives up.
    var busyFor: Duration {
      interval * busyLooks
    }

    /// The end of a scope, where every task should have ended: looks every quarter of a second,
    /// gives up on 1,000 jobs in one look or after ten seconds (five times as long under the thread
    /// sanitizer, which slows every thread).
    static let scopeEnd = Patience(
      interval: .milliseconds(250),
      busyJobs: 1_000,
      busyLooks: 1,
      limit: .seconds(LaneWatchdog.isSanitized ? 50 : 10)
    )

    /// An `await advance`, where tasks may have real work to do: gives up only on a scope that
    /// runs 1,000 jobs or more in every quarter of a second for five seconds (25 under the thread
    /// sanitizer) without ever being idle.
    static let advance = Patience(
      interval: .milliseconds(250),
      busyJobs: 1_000,
      busyLooks: LaneWatchdog.isSanitized ? 100 : 20,
      limit: nil
    )

    /// An `await advance` that has given up once: the loop it reported is still running, so it
    /// no longer waits for it for long.
    static let advanceAfterGivingUp = Patience(
      interval: .milliseconds(250),
      busyJobs: 1_000,
      busyLooks: 1,
      limit: nil
    )
  }

  /// A task waiting for the scope to be idle, and how its patience stands.
  private struct IdleWaiter {
    let continuation: UnsafeContinuation<Bool, Never>
    /// Nil: it waits as long as it takes.
    let patience: Patience?
    /// The waiting task (suspended, so alive, until it is resumed): a wait with patience ends
    /// when it is cancelled.
    let task: UInt?
    /// The jobs finished when it was last looked at, and how long it has waited since it began.
    var finishedAtLook: UInt64
    var waited: Duration = .zero
    /// Real time since the last look, and how many looks in a row found the scope busy.
    var sinceLook: Duration = .zero
    var busyLooks = 0
  }

  /// Judges the patience of the waiters that have one, `elapsed` (real time) after the last call:
  /// a waiter is given up on (resumed with false) once the scope has been busy for
  /// `patience.busyLooks` looks in a row, or the wait has reached `patience.limit`. Called by the
  /// lane's watchdog on each of its looks, so that a wait costs nothing until then. `afterStop`:
  /// the whole process was stopped meanwhile (a debugger), which no waiter is charged for.
  func judgeWaiters(elapsed: Duration, afterStop: Bool) {
    condition.lock()
    guard idleWaiters.contains(where: { $0.patience != nil }) else {
      condition.unlock()
      return
    }
    var givenUp: [UnsafeContinuation<Bool, Never>] = []
    var waiting: [IdleWaiter] = []
    for var waiter in idleWaiters {
      if waiter.patience != nil, let task = waiter.task, ScopeTasks.isCancelled(task) {
        givenUp.append(waiter.continuation)
        continue
      }
      if let patience = waiter.patience, !afterStop {
        waiter.sinceLook += elapsed
        if waiter.sinceLook >= patience.interval {
          waiter.waited += waiter.sinceLook
          waiter.sinceLook = .zero
          waiter.busyLooks = finishedJobs - waiter.finishedAtLook >= patience.busyJobs ? waiter.busyLooks + 1 : 0
          waiter.finishedAtLook = finishedJobs
          if waiter.busyLooks >= patience.busyLooks || patience.limit.map({ waiter.waited >= $0 }) == true {
            givenUp.append(waiter.continuation)
            continue
          }
        }
      }
      waiting.append(waiter)
    }
    idleWaiters = waiting
    condition.unlock()
    guard !givenUp.isEmpty else { return }
    // Resumed as the scope's own work (on behalf of its lane), not as an escape from outside.
    let previous = Self.lane.value
    Self.lane.set(Unmanaged.passUnretained(self).toOpaque())
    defer { Self.lane.set(previous) }
    for continuation in givenUp { continuation.resume(returning: false) }
  }

  /// ``whenIdle(drive:isolation:)`` after leaving the caller's actor, so that the jobs queued on it
  /// can run (and be counted) meanwhile.
  @discardableResult
  @concurrent func whenIdleAwayFromActor(drive: CallSite?, patience: Patience? = nil) async -> Bool {
    await whenIdle(drive: drive, patience: patience, isolation: nil)
  }

  /// Whether a caller on `isolation` would find the scope idle now, without waiting: true only on
  /// the main actor or no actor (a caller on another actor must step off it first: jobs queued on
  /// that actor while it holds it are not counted yet).
  func isSettled(drive: CallSite?, isolation: (any Actor)?) -> Bool {
    if let isolation, isolation !== MainActor.shared { return false }
    return isIdle(own: Self.onCurrentThread === self ? 1 : 0, drive: drive)
  }

  private func isIdle(own: Int, drive: CallSite?) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    if let drive { lastDrive = drive }
    return inFlight - own <= 0
  }

  /// Whether the scope still takes jobs.
  var isOpen: Bool {
    condition.lock()
    defer { condition.unlock() }
    return !closed
  }

  /// The escapes recorded since the last call.
  func takeEscapes() -> [Escape] {
    condition.lock()
    defer { condition.unlock() }
    let taken = escapes
    escapes = []
    return taken
  }

  /// Stops taking jobs; the thread ends once the queue is empty; the scope's tasks are forgotten.
  func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    let retained = started
    started = []
    condition.unlock()
    ScopeTasks.release(self)
    LaneWatchdog.forget(self)
    for task in retained {
      ScopeTasks.release(task.address)
    }
  }

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

  // MARK: The serial lane

  /// One job of the scope has run: wake the waiters when it was the last.
  private func finished() {
    condition.lock()
    let ready = finishedLocked()
    condition.unlock()
    for waiter in ready {
      waiter.resume(returning: true)
    }
  }

  /// Counts one job of the scope as run, returning the waiters to resume when it was the last.
  /// Called with the lock held.
  private func finishedLocked() -> [UnsafeContinuation<Bool, Never>] {
    inFlight -= 1
    finishedJobs &+= 1
    guard inFlight == 0, !idleWaiters.isEmpty else { return [] }
    defer { idleWaiters = [] }
    return idleWaiters.map(\.continuation)
  }

  private func loop(generation: Int) {
    Self.lane.set(Unmanaged.passUnretained(self).toOpaque())
    let taskExecutor = asUnownedTaskExecutor()
    let thread = Platform.currentThread()
    condition.lock()
    laneThread = thread
    while generation == laneGeneration {
      if head < jobs.count {
        let job = jobs[head]
        head += 1
        if head == jobs.count {
          jobs.removeAll(keepingCapacity: true)
          head = 0
        }
        laneJobsStarted &+= 1
        laneJobRunning = true
        condition.unlock()
        // Run as the current task executor, so that `Task.yield()` comes back here.
        job.runSynchronously(on: taskExecutor)
        condition.lock()
        // A thread replaced while its job was blocked stops: a new thread runs the lane since,
        // and the job was counted done when it was given up on.
        if generation != laneGeneration { break }
        laneJobRunning = false
        let ready = finishedLocked()
        if !ready.isEmpty {
          condition.unlock()
          for waiter in ready { waiter.resume(returning: true) }
          condition.lock()
        }
      } else if closed {
        break
      } else {
        condition.wait()
      }
    }
    condition.unlock()
    Self.lane.set(nil)
  }

  // MARK: A job that blocks the lane

  /// What the watchdog sees of the serial lane: how many jobs it has started, whether one is
  /// running, and its thread.
  func laneSnapshot() -> (started: UInt64, running: Bool, thread: Platform.Thread?) {
    condition.lock()
    defer { condition.unlock() }
    // A blocked job matters only when something waits behind it: a queued job, or an advance.
    let waitedFor = head < jobs.count || !idleWaiters.isEmpty
    return (laneJobsStarted, laneJobRunning && waitedFor && !closed, laneThread)
  }

  /// Gives up on the lane's running job — job `number`, which has not returned for `duration` —
  /// when it is still the one running: a new thread runs the scope's other jobs (so a job waiting
  /// for one of them is released), and the blocked one is reported (when `reported`). The blocked
  /// job counts as done from then on, so that a wait for the scope goes on; its thread ends when
  /// it returns.
  func replaceBlockedLane(job number: UInt64, after duration: Duration, waiting: Bool, reported: Bool) {
    condition.lock()
    guard !closed, laneJobRunning, laneJobsStarted == number else {
      condition.unlock()
      return
    }
    laneGeneration += 1
    laneJobRunning = false
    let generation = laneGeneration
    if reported {
      recordBlockedLane(after: duration, waiting: waiting)
    }
    // The blocked job no longer counts as in flight: an advance waiting for the scope goes on,
    // and says why (the escape above). Its thread ends when it returns, counting nothing.
    let ready = finishedLocked()
    condition.unlock()
    for waiter in ready { waiter.resume(returning: true) }
    startLaneThread(generation: generation)
  }

  /// Records the job given up on as an escape. Called with the lock held.
  private func recordBlockedLane(after duration: Duration, waiting: Bool) {
    escapes.append(
      Escape(
        description: waiting
          ? """
          a task of the scope blocked the scope's thread for more than \(duration.literal) (a semaphore, \
          a lock held across an await, DispatchQueue.sync onto work of the scope, or a real \
          Thread.sleep); the scope's other tasks went on on a new thread meanwhile, so they no \
          longer run one at a time. Await instead of blocking: an AsyncStream, a continuation, or \
          the scheduler's sleep
          """
          : """
          a job of the scope ran for more than \(duration.literal) without suspending (a busy loop \
          waiting for another task?); the scope's other tasks went on on a new thread meanwhile, \
          so they no longer run one at a time. Await what the loop waits for instead
          """,
        during: lastDrive
      )
    )
  }
}
