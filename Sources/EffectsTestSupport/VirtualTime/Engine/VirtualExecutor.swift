import Effects
import Foundation
import Synchronization

/// The executor of one virtual-time scope: it runs every job of the scope's tasks and knows,
/// exactly, when none is left — the basis of `await TestScheduler.advance(by:)`. (This file also
/// holds what its lanes run on: ``ParkedThreads``, ``LaneWatchdog`` and ``MainActorProxy``.)
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
/// Every stored `var` is guarded by `condition`. This file holds the state, how jobs are queued,
/// the serial lane with its blocked-job rescue, and waiting until the scope is idle; which tasks
/// the scope owns is in `VirtualExecutor+Ownership.swift`.
@available(EffectsVirtualTime, *)
final class VirtualExecutor: TaskExecutor, @unchecked Sendable {
  /// The executor of the scope the current task is in.
  @TaskLocal static var scope: VirtualExecutor?

  static let lane = Platform.ThreadSpecific()

  /// The scope whose serial lane runs on this thread (``lane`` is set on the main thread too,
  /// while it runs the scope's main-actor jobs).
  private static let serialLane = Platform.ThreadSpecific()

  /// Counts a job queued by the serial lane's running job (see ``laneJobEnqueues``). Called with
  /// the lock held.
  private func noteLaneJobEnqueueLocked() {
    if laneJobRunning, Self.serialLane.value == Unmanaged.passUnretained(self).toOpaque() {
      laneJobEnqueues &+= 1
    }
  }

  /// Set on a thread while it resumes a task suspended on the main actor.
  private static let resumption = Platform.ThreadSpecific()

  /// Runs `resume`, which resumes a continuation of a task suspended on the main actor, so that
  /// the job it queues goes to the main lane rather than the serial one.
  ///
  /// The runtime resumes every continuation on the generic executor first: a job that only hops
  /// back to the task's actor. For a main-actor task, sending that job to the serial lane costs
  /// two thread wake-ups (the lane's, then the main queue's) and lets the lane finish the hop
  /// after the main actor has already gone on, so an awaited step cost a varying number of jobs.
  /// On the main lane the hop runs in turn with the main-actor work it leads to, on the thread
  /// that is running it already. Only continuations made by this library on the main actor (a
  /// `sleep` on the scheduler, a wait for the scope) are resumed this way: their generic job runs
  /// no code but the hop.
  static func resumingOnMainActor(_ resume: () -> Void) {
    resumption.set(UnsafeMutableRawPointer(bitPattern: 1))
    resume()
    resumption.set(nil)
  }

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

  /// Whether the current context belongs to an open scope (``current`` is not nil), answered
  /// without retaining the scope: the runtime asks on every hop to the main actor, nine times an
  /// awaited `@MainActor` step (`steps.1e4.effects`).
  ///
  /// The task-local comes first: only a task binds it (a scope opens in async code), so when it
  /// is bound to an open scope a task is running, and the common case asks the runtime once.
  static var isCurrentOpen: Bool {
    if RuntimeDoor.withBoundObject($scope, { $0.isOpen }) == true { return true }
    guard let task = ScopeTasks.currentTaskJob else {
      guard let pointer = lane.value else { return false }
      return RuntimeDoor.withGuaranteed(Unmanaged<VirtualExecutor>.fromOpaque(pointer)) { $0.isOpen }
    }
    return ScopeTasks.isOwned(task)
  }

  private static func context(running task: UnownedJob?) -> VirtualExecutor? {
    if let task {
      if let scope = RuntimeDoor.bound($scope), scope.isOpen { return scope }
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
    if !onMainActor, let lane = onCurrentThread, lane.continueRunningTask(job) { return true }
    let running = ScopeTasks.currentTaskJob
    guard let context = context(running: running) else {
      guard ScopeTasks.isTask(job), let owner = ScopeTasks.owner(of: job) else { return false }
      return owner.enqueueEscaped(job, onMainActor: onMainActor)
    }
    if context !== onCurrentThread, let running, ScopeTasks.address(of: running) != context.driver {
      // A task of the scope is running off the scope's lanes: something outside the scope ran it.
      context.recordEscape(
        VirtualTimeWording.ranOutsideTheScope()
      )
    }
    return onMainActor ? context.enqueueMain(job) : context.enqueueGlobal(job)
  }

  /// An unstructured task the scope started.
  struct StartedTask {
    /// Its address, retained by the scope.
    var address: UInt
    /// The runtime's id of the task: tasks are numbered in the order they are made.
    var id: UInt64
    /// The return addresses of the stack that started it, in ``VirtualExecutor/origins``: where
    /// its report is placed, should it be left over.
    var origin: Range<Int>
  }

  /// The driver of the scope asleep on its scheduler, and how to wake it should it be stranded.
  struct SleepingDriver {
    let wake: @Sendable () -> Void
  }

  /// Records that the driver sleeps on the scope's scheduler (nil: it woke).
  func driverSleeps(_ sleeping: SleepingDriver?) {
    condition.lock()
    sleepingDriver = sleeping
    condition.unlock()
  }

  /// Something that reached the scope from outside it.
  struct Escape {
    /// What escaped, for the report.
    var description: String
    /// The async form that had returned (or was running) when it happened.
    var during: CallSite?
    /// For a real sleep, the resume points of the task that slept, as it started the sleep (see
    /// ``ScopeTasks/resumePoints(ofSuspendedTask:maximum:)``): where the report finds the line.
    var sleptAt: [UInt] = []
    /// Whether the task that slept for real is the test's own (the scope's driver).
    var byDriver = false
    /// For a real sleep, the wait: `a real, wall-clock wait of about .milliseconds(10) on
    /// ContinuousClock`.
    var realWait = ""
  }

  /// Guards every stored `var` below. They are `@exclusivity(unchecked)`: the lock makes every
  /// access exclusive already, and the runtime's check cost 1,100 instructions an awaited
  /// `@MainActor` step (`steps.1e4.effects`: a queued job's ownership and queue, the wait for the
  /// scope, its escapes).
  let condition = NSCondition()
  @exclusivity(unchecked) var jobs: [UnownedJob] = []
  @exclusivity(unchecked) var head = 0
  /// Main-actor jobs waiting for their turn on the main queue, and whether a turn is scheduled.
  @exclusivity(unchecked) var mainJobs: [MainJob] = []
  @exclusivity(unchecked) var mainHead = 0
  @exclusivity(unchecked) var mainDrainScheduled = false
  /// What is told after each main-actor job of the scope has run (a ``ModelTester``'s recorder),
  /// until the scope closes.
  @exclusivity(unchecked) var mainJobObservers: [any MainJobObserver] = []
  /// Jobs queued on either lane or running there.
  @exclusivity(unchecked) var inFlight = 0
  /// The task whose job the serial lane is running (its address; 0 for none, or a job that is
  /// not a task), and that task's next job, when it queued one from there (see
  /// ``continueRunningTask(_:)``).
  @exclusivity(unchecked) var laneTask: UInt = 0
  @exclusivity(unchecked) var laneTaskNext: UnownedJob?
  /// How many jobs of the scope have finished: what a wait with ``Patience`` looks at.
  @exclusivity(unchecked) var finishedJobs: UInt64 = 0
  /// How many jobs the scope has queued, on either lane.
  @exclusivity(unchecked) var queuedJobs: UInt64 = 0
  /// Whether the scope has stopped taking jobs: set once, by ``close()``, under the lock. Atomic,
  /// so that ``isOpen`` reads it without the lock: the runtime's hooks ask on every hop to the
  /// main actor, where taking the lock cost 70 instructions a time (`steps.1e4.effects`).
  private let closedFlag = Atomic<Bool>(false)
  /// ``closedFlag``, read with the lock held.
  var closed: Bool { closedFlag.load(ordering: .relaxed) }
  /// Tasks waiting for the count to reach zero.
  @exclusivity(unchecked) var idleWaiters: [IdleWaiter] = []
  /// The unstructured tasks the scope started, kept alive (retained) until it closes so that its
  /// end can tell which of them never finished.
  @exclusivity(unchecked) var started: [StartedTask] = []
  /// The stacks that started the tasks of ``started``, one after another: one buffer, so that a
  /// task costs no allocation of its own.
  @exclusivity(unchecked) var origins: [UInt] = []
  /// Started tasks a prune found ended, released by the serial lane, ``releasedPerJob`` a job
  /// (see ``pruneStarted()``). While the lane runs a job that does not suspend (a nonisolated
  /// test starting `@MainActor` tasks in a loop), they wait for it, and stay alive until then.
  @exclusivity(unchecked) var endedTasks: [UInt] = []
  /// The first of ``endedTasks`` not released yet (a job takes from the front without moving the
  /// rest, as the lane's `jobs` does with `head`).
  @exclusivity(unchecked) var endedHead = 0
  /// Whether a prune started the serial lane, whose thread starts once the lock is dropped
  /// (``unlockStartingLane()``).
  @exclusivity(unchecked) var laneStartsOnUnlock = false
  /// The size of ``started`` at which it is next pruned of ended tasks.
  @exclusivity(unchecked) var pruneAt = VirtualExecutor.firstPrune
  /// The serial lane's thread generation: a thread whose generation is not this one has been
  /// replaced (its job blocked the lane) and stops after that job.
  @exclusivity(unchecked) var laneGeneration = 0
  /// How many jobs the serial lane has started, and whether one is running now: the watchdog
  /// compares them between two looks to find a job that does not return.
  @exclusivity(unchecked) var laneJobsStarted: UInt64 = 0
  @exclusivity(unchecked) var laneJobRunning = false
  /// How many jobs the serial lane's own thread has queued while one of its jobs ran: a long job
  /// that queues work (a loop starting thousands of tasks, an advance resuming thousands of
  /// sleepers) is working, even when the watchdog finds its thread waiting on a lock.
  @exclusivity(unchecked) var laneJobEnqueues: UInt64 = 0
  /// Whether the lane's running job releases ended tasks (``releaseEndedTasksLocked()``), for
  /// the watchdog's report.
  @exclusivity(unchecked) var laneJobReleases = false
  /// The lane's thread, for the watchdog to read its state.
  @exclusivity(unchecked) var laneThread: Platform.Thread?
  /// Whether the lane's thread was started: on the first job queued there. A `@MainActor` test
  /// whose tasks all run on the main actor never needs it, and never pays for a thread.
  @exclusivity(unchecked) var laneStarted = false
  /// The runtime id of the task that opened the scope: tasks created later have larger ids.
  @exclusivity(unchecked) var driverID: UInt64 = 0
  /// Under exploration (see ``Exploration``): what chooses the next job, whether a job holds the
  /// turn (one runs at a time, on either lane), and the job chosen for the serial lane.
  @exclusivity(unchecked) var chooser: ScheduleChooser?
  /// Whether the scope is explored (``chooser`` is set): fixed when it opens, read without the lock.
  let explores: Bool
  /// Under exploration, whether this library reported a failure from one of the scope's tasks.
  let failureReported = Atomic<Bool>(false)
  @exclusivity(unchecked) var turnHeld = false
  @exclusivity(unchecked) var laneChosen: UnownedJob?

  @exclusivity(unchecked) var escapes: [Escape] = [] {
    // Under exploration, work from outside came in an order no seed chooses: a replay may differ.
    didSet { if escapes.count > oldValue.count { chooser?.workFromOutside = true } }
  }
  /// What the scope has reported that is said once a scope.
  @exclusivity(unchecked) var reportedOnce: Set<String> = []
  /// The tasks this scope has queued: their runtime ids, by address.
  @exclusivity(unchecked) var adopted = TaskTable()
  /// The last async form that waited for the scope (what an escape happened after).
  @exclusivity(unchecked) var lastDrive: CallSite?
  /// The driver, while it sleeps on the scope's scheduler: when every other task of the scope has
  /// suspended too, and no advance is under way, nothing can ever move time for it.
  @exclusivity(unchecked) var sleepingDriver: SleepingDriver?
  /// The scope's scheduler, which moves time for a stalled test (see
  /// ``judgeStall(elapsed:afterStop:)``): set when the scope opens, let go when it closes.
  @exclusivity(unchecked) var stalledScheduler: TestScheduler?
  /// The test found stalled, and time moved for it, since the last report; how long the scope
  /// has looked stalled, and the jobs finished when it was last looked at.
  @exclusivity(unchecked) var stall: Stall?
  @exclusivity(unchecked) var stalledFor: Duration = .zero
  @exclusivity(unchecked) var stallMark: UInt64 = 0
  /// How many times the scope has moved time for its stalled test.
  @exclusivity(unchecked) var stallsMoved = 0
  /// The task that opened the scope: its own resumptions from outside are not escapes (it waits
  /// for them itself, in order).
  let driver: UInt?
  /// Whether the driver runs with the serial lane as its preferred task executor (a test that is
  /// not on the main actor, or whose isolation the scope cannot see: a test trait opens it from a
  /// nonisolated context). Its main-actor jobs then run with that task executor as well, as the
  /// runtime expects of a task with that preference: otherwise each of its hops between two
  /// main-actor functions would be a switch of task executor, queued on the main lane.
  let driverPrefersLane: Bool
  /// The XCTest case that opened the scope: a report raised by a task of the scope after that
  /// case ended names it.
  let origin = XCTestCaseOrigin.running
  /// The executor of a new scope; its serial lane's thread starts with the lane's first job.
  /// `chooser`: the order of its jobs is explored (one runs at a time, as it chooses).
  init(driver: UInt?, driverPrefersLane: Bool, chooser: ScheduleChooser? = nil) {
    self.driver = driver
    self.driverPrefersLane = driverPrefersLane
    self.chooser = chooser
    explores = chooser != nil
    LaneWatchdog.watch(self)
  }

  // MARK: Queueing

  /// Queues a job enqueued from inside the scope on the serial lane; false once the scope is
  /// closed (the caller then hands it to the global executor).
  func enqueueGlobal(_ job: UnownedJob) -> Bool {
    if Self.resumption.value != nil {
      Self.resumption.set(nil)
      return enqueueMain(job, hop: true)
    }
    condition.lock()
    guard !closed else {
      condition.unlock()
      return false
    }
    switch claim(job) {
    case .ours:
      if stall != nil { noteDriverResumedAfterStall(job) }
      noteLaneJobEnqueueLocked()
      inFlight += 1
      queuedJobs &+= 1
      jobs.append(job)
      let start = !laneStarted
      laneStarted = true
      if !explores {
        condition.signal()
      } else {
        chooseNextLocked()
      }
      unlockStartingLane()
      if start { startLaneThread(generation: 0) }
      return true
    case .another(let owner):
      unlockStartingLane()
      return owner.enqueueEscaped(job, onMainActor: false)
    case .none:
      unlockStartingLane()
      return false
    }
  }

  /// Takes `job` as the next job of the task whose job the serial lane is running, when that task
  /// queued it itself: the lane runs it as soon as the running job returns, without queueing it.
  ///
  /// A task that prefers no task executor, run on the lane (whose jobs run with the scope as their
  /// task executor, so that a `Task.yield()` comes back to it), leaves it whenever it switches to
  /// the global executor: on entering a function isolated to its caller's actor, nil there
  /// (`withTaskGroup`, `withTaskCancellationHandler`, a continuation's `isolation:`, the
  /// scheduler's own sleep), and on returning from one. The runtime sees the task executor differ
  /// from the task's and queues the task again, through the global hook, back here. A scope's
  /// tasks do that often: those of `Benchmarks/Suites`' importer 868 times a case, 84% of the
  /// lane's jobs, each paying a queue's bookkeeping (#40). On a real executor the task would go on
  /// on the same thread; here it goes on on the lane, next, for up to
  /// ``VirtualExecutor/hopsInARow`` hops while other jobs wait, then behind them. A hop counts as
  /// a job run and a job queued (the waits' patience and the watchdog see the same jobs as
  /// before), and inherits the running job's place in the count of jobs in flight.
  func continueRunningTask(_ job: UnownedJob) -> Bool {
    // A continuation resumed on behalf of the main actor goes to the main lane: not this.
    guard Self.resumption.value == nil else { return false }
    condition.lock()
    defer { condition.unlock() }
    guard !closed, !explores, laneTask != 0, laneTaskNext == nil, ScopeTasks.address(of: job) == laneTask else {
      return false
    }
    laneTaskNext = job
    queuedJobs &+= 1
    return true
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
          description: VirtualTimeWording.resumedFromOutside(),
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

  /// A job of the main lane.
  struct MainJob {
    var job: UnownedJob
    /// A resumption on the generic executor that hops to the main actor (see
    /// ``resumingOnMainActor(_:)``), run as the serial lane runs its jobs.
    var hop: Bool
  }

  /// Counts a main-actor job of the scope and runs it on the main queue, as the main actor's
  /// executor would; false once the scope is closed. `hop`: a resumption on the generic executor
  /// that goes straight on to the main actor, run there as the serial lane would run it.
  func enqueueMain(_ job: UnownedJob, hop: Bool = false) -> Bool {
    condition.lock()
    guard !closed else {
      condition.unlock()
      return false
    }
    switch claim(job) {
    case .ours: break
    case .another(let owner):
      unlockStartingLane()
      return owner.enqueueEscaped(job, onMainActor: !hop)
    case .none:
      unlockStartingLane()
      return false
    }
    if stall != nil { noteDriverResumedAfterStall(job) }
    noteLaneJobEnqueueLocked()
    inFlight += 1
    queuedJobs &+= 1
    mainJobs.append(MainJob(job: job, hop: hop))
    if explores {
      chooseNextLocked()
      unlockStartingLane()
      return true
    }
    let schedule = !mainDrainScheduled
    mainDrainScheduled = true
    unlockStartingLane()
    if schedule {
      DispatchQueue.main.async { [self] in drainMain() }
    }
    return true
  }

  /// Runs the scope's main-actor jobs in order, on the main queue, as the main actor would. A
  /// batch of jobs runs per main-queue turn (fewer thread wake-ups); after a batch, the rest
  /// waits for a new turn so that the scope never holds the main queue for long.
  func drainMain() {
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
      let next = mainJobs[mainHead]
      mainHead += 1
      condition.unlock()
      runMainJob(next)
    }
    DispatchQueue.main.async { [self] in drainMain() }
  }

  /// Runs one main-actor job of the scope, on the main queue, and counts it as run.
  func runMainJob(_ next: MainJob) {
    let job = next.job
    // Known before the job runs (it may free the task); the observers are read after it, so a
    // tester made in this very job sees it end.
    let task = ScopeTasks.isTask(job) ? ScopeTasks.address(of: job) : 0
    if next.hop {
      job.runSynchronously(on: asUnownedTaskExecutor())
    } else if driverPrefersLane, ScopeTasks.address(of: job) == driver {
      job.runSynchronously(
        isolatedTo: MainActorProxy.shared.asUnownedSerialExecutor(),
        taskExecutor: asUnownedTaskExecutor()
      )
    } else {
      job.runSynchronously(on: MainActorProxy.shared.asUnownedSerialExecutor())
    }
    finishedMainJob(task: task)
  }

  /// Counts a main-actor job as run, after telling the observers it ran (`task`: its task's address,
  /// or 0): before it counts, so that a wait for the scope returns after they have seen it.
  private func finishedMainJob(task: UInt) {
    condition.lock()
    guard !mainJobObservers.isEmpty else {
      let ready = finishedLocked()
      condition.unlock()
      wake(ready)
      return
    }
    let observers = mainJobObservers
    condition.unlock()
    for observer in observers { observer.mainJobRan(task: task, isTest: task != 0 && task == driver) }
    finished()
  }

  /// Tells `observer` after each main-actor job of the scope from now on, until the scope closes;
  /// false when it is closed already.
  func observeMainJobs(_ observer: any MainJobObserver) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard !closed else { return false }
    mainJobObservers.append(observer)
    return true
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
  func recordEscapeLocked(_ description: String) {
    escapes.append(Escape(description: description, during: lastDrive))
  }

  /// Whether the scope still takes jobs.
  var isOpen: Bool {
    !closedFlag.load(ordering: .acquiring)
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
    closedFlag.store(true, ordering: .releasing)
    condition.broadcast()
    // Under the lock: no release here can be the scheduler's last, since it closes its own scope.
    stalledScheduler = nil
    let retained = started
    let ended = endedTasks[endedHead...]
    started = []
    origins = []
    endedTasks = []
    endedHead = 0
    let own = adopted
    adopted = TaskTable()
    let observers = mainJobObservers
    mainJobObservers = []
    condition.unlock()
    // Released outside the lock: an observer's release may release a model, whose deinit may
    // start work.
    _ = observers
    ScopeTasks.release(self, tasks: own)
    LaneWatchdog.forget(self)
    for task in retained {
      ScopeTasks.release(task.address)
    }
    for address in ended {
      ScopeTasks.release(address)
    }
  }

}

// The serial lane of a virtual-time scope: one thread running the scope's nonisolated jobs one at
// a time, and what happens when a job blocks it (the watchdog replaces the thread).

@available(EffectsVirtualTime, *)
extension VirtualExecutor {
  /// Runs the lane on a thread of its own: one parked by an earlier scope, or a new one.
  func startLaneThread(generation: Int) {
    ParkedThreads.lanes.run { [self] in loop(generation: generation) }
  }

  // MARK: The serial lane

  /// One job of the scope has run: wake the waiters when it was the last.
  func finished() {
    condition.lock()
    let ready = finishedLocked()
    condition.unlock()
    wake(ready)
  }

  /// What to wake once a job has run: the tasks waiting for the scope to be idle, when it was the
  /// last job; or, when it was the last and nothing waits, the scope's driver if it sleeps on the
  /// scope's scheduler — stranded, since only it could advance.
  struct Ready {
    var waiters: [IdleWaiter] = []
    var stranded: SleepingDriver?

    var isEmpty: Bool { waiters.isEmpty && stranded == nil }
  }

  /// Counts one job of the scope as run, returning what to wake (``wake(_:)``) when it was the
  /// last. Called with the lock held.
  func finishedLocked() -> Ready {
    inFlight -= 1
    finishedJobs &+= 1
    guard inFlight == 0 else { return Ready() }
    guard idleWaiters.isEmpty else {
      defer { idleWaiters = [] }
      return Ready(waiters: idleWaiters)
    }
    guard let stranded = sleepingDriver, !closed else { return Ready() }
    sleepingDriver = nil
    return Ready(stranded: stranded)
  }

  /// Wakes what ``finishedLocked()`` returned; called without the lock. What it wakes is woken
  /// as the scope's own work (on behalf of its lane), not as an escape from outside, whatever
  /// thread counted the last job: the watchdog's, or one that ran work outside the scope.
  func wake(_ ready: Ready) {
    guard !ready.isEmpty else { return }
    let previous = Self.lane.value
    Self.lane.set(Unmanaged.passUnretained(self).toOpaque())
    defer { Self.lane.set(previous) }
    for waiter in ready.waiters {
      waiter.resume(returning: true)
    }
    ready.stranded?.wake()
  }

  /// How many hops of one task the serial lane runs in a row while other jobs of the scope wait
  /// (see ``continueRunningTask(_:)``): a task's turn, as a thread's on a real executor. A task
  /// polling in a loop of hops for another task's flag starved it, and hung the test: the hops
  /// counted as progress, so neither the watchdog nor an advance's patience stepped in (#40).
  static let hopsInARow = 64

  func loop(generation: Int) {
    if explores { return exploringLoop(generation: generation) }
    Self.lane.set(Unmanaged.passUnretained(self).toOpaque())
    Self.serialLane.set(Unmanaged.passUnretained(self).toOpaque())
    let taskExecutor = asUnownedTaskExecutor()
    let thread = Platform.currentThread()
    condition.lock()
    laneThread = thread
    while generation == laneGeneration {
      let releases = !endedTasks.isEmpty
      if releases || head < jobs.count {
        laneJobsStarted &+= 1
        laneJobRunning = true
        laneJobReleases = releases
        if releases {
          releaseEndedTasksLocked()
        } else {
          var job = jobs[head]
          head += 1
          if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
          }
          var hops = 0
          while true {
            laneTask = ScopeTasks.isTask(job) ? ScopeTasks.address(of: job) : 0
            condition.unlock()
            // Run as the current task executor, so that `Task.yield()` comes back here.
            job.runSynchronously(on: taskExecutor)
            condition.lock()
            laneTask = 0
            // The task hopped from its job to the global executor: it goes on here, as the same
            // job in flight (see `continueRunningTask`)...
            guard generation == laneGeneration, let next = laneTaskNext else { break }
            laneTaskNext = nil
            hops += 1
            // ...for `hopsInARow` hops while other jobs wait, then behind them, as a job of its
            // own: a task that polls in a loop of hops must let the task it waits for run.
            if hops >= Self.hopsInARow, head < jobs.count {
              jobs.append(next)
              inFlight += 1
              break
            }
            finishedJobs &+= 1
            laneJobsStarted &+= 1
            job = next
          }
        }
        // A thread replaced while its job was blocked stops: a new thread runs the lane since,
        // and the job was counted done when it was given up on.
        if generation != laneGeneration { break }
        laneJobRunning = false
        let ready = finishedLocked()
        if !ready.isEmpty {
          condition.unlock()
          wake(ready)
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
  /// running, its thread, and how many jobs it has queued from its running jobs.
  func laneSnapshot() -> (started: UInt64, running: Bool, thread: Platform.Thread?, enqueues: UInt64) {
    condition.lock()
    defer { condition.unlock() }
    // A blocked job matters only when something waits behind it: a queued job, or an advance.
    let waitedFor = head < jobs.count || !idleWaiters.isEmpty || (explores && mainHead < mainJobs.count)
    return (laneJobsStarted, laneJobRunning && waitedFor && !closed, laneThread, laneJobEnqueues)
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
    // The blocked job's task no longer goes on on the lane when it hops: its hop is queued. One
    // taken just before is queued too, as a job in flight of its own.
    laneTask = 0
    if let next = laneTaskNext {
      laneTaskNext = nil
      jobs.append(next)
      inFlight += 1
    }
    let generation = laneGeneration
    if reported {
      recordBlockedLane(after: duration, waiting: waiting, releasing: laneJobReleases)
    }
    // The blocked job no longer counts as in flight: an advance waiting for the scope goes on,
    // and says why (the escape above). Its thread ends when it returns, counting nothing.
    let ready = finishedLocked()
    condition.unlock()
    wake(ready)
    // Under exploration it no longer holds the turn either: the order is no longer chosen (the
    // report says the lane was blocked), but the test goes on.
    if explores { passTheTurn() }
    startLaneThread(generation: generation)
  }

  /// Records the job given up on as an escape. Called with the lock held.
  func recordBlockedLane(after duration: Duration, waiting: Bool, releasing: Bool) {
    let description =
      if releasing {
        VirtualTimeWording.slowResultDeinit(duration: duration.literal)
      } else if waiting {
        VirtualTimeWording.blockedLane(duration: duration.literal)
      } else {
        VirtualTimeWording.busyJob(duration: duration.literal)
      }
    escapes.append(Escape(description: description, during: lastDrive))
  }

}

// Waiting for a virtual-time scope to be idle: every job of its tasks run, on both lanes. An
// awaited advance, and the end of the scope, wait here — judged by the jobs finished, never by a
// clock — with a patience that turns a task that never settles into a report.

@available(EffectsVirtualTime, *)
extension VirtualExecutor {
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
    // Unsafe, not checked, because it pays in the benchmark `callback-steps.1e3.effects`. A
    // waiter is resumed once, by whoever removes it from `idleWaiters` under `condition`.
    // The waiting task, whose cancellation the watchdog's looks notice (a cancellation handler
    // would cost an allocation on every wait: the benchmark `callback-steps` counted one per step).
    let task = patience == nil ? nil : ScopeTasks.currentTask
    let onMainActor = isolation === MainActor.shared
    return await withUnsafeContinuation(isolation: isolation) { (continuation: UnsafeContinuation<Bool, Never>) in
      condition.lock()
      if inFlight - own <= 0 {
        condition.unlock()
        continuation.resume(returning: true)
        return
      }
      idleWaiters.append(
        IdleWaiter(
          continuation: continuation,
          onMainActor: onMainActor,
          patience: patience,
          task: task,
          finishedAtLook: finishedJobs,
          inFlightAtLook: inFlight
        )
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
    /// How many looks must find the scope busy before the wait gives up: a loop that
    /// never suspends (`Task.yield()`) stays busy for ever; real work, however long, ends.
    var busyLooks: Int
    /// The longest wait, in real time, for a scope that is not busy (a job that never returns);
    /// nil: no limit (the lane's watchdog deals with a job that never returns).
    var limit: Duration?

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
    /// runs 1,000 jobs or more in each of 20 quarters of a second (five seconds) without ever
    /// being idle. Under the thread sanitizer, which makes every job many times slower, 100 jobs
    /// in each of 40 looks (ten seconds): with 1,000, a `Task.yield()` loop on a machine that was
    /// busy as well fell short of it in some look of every streak, and the advance never gave up;
    /// with 100 looks, a loop on the main actor held it for so long that the main-actor tests
    /// running beside it reached their time limit.
    static let advance = Patience(
      interval: .milliseconds(250),
      busyJobs: LaneWatchdog.isSanitized ? 100 : 1_000,
      busyLooks: LaneWatchdog.isSanitized ? 40 : 20,
      limit: nil
    )

    /// An `await advance` that has given up once: the loop it reported is still running, so it
    /// no longer waits for it for long.
    static let advanceAfterGivingUp = Patience(
      interval: .milliseconds(250),
      busyJobs: LaneWatchdog.isSanitized ? 100 : 1_000,
      busyLooks: 1,
      limit: nil
    )
  }

  /// A task waiting for the scope to be idle, and how its patience stands.
  struct IdleWaiter {
    let continuation: UnsafeContinuation<Bool, Never>
    /// Whether it waits on the main actor: its resumption then goes to the main lane.
    let onMainActor: Bool
    /// Nil: it waits as long as it takes.
    let patience: Patience?
    /// The waiting task (suspended, so alive, until it is resumed): a wait with patience ends
    /// when it is cancelled.
    let task: UInt?
    /// The jobs finished, and the jobs queued or running, when it was last looked at, and how
    /// long it has waited since it began.
    var finishedAtLook: UInt64
    var inFlightAtLook: Int
    var waited: Duration = .zero
    /// Real time since the last look, and how many looks since the wait began found the scope busy.
    var sinceLook: Duration = .zero
    var busyLooks = 0

    /// Resumes the waiting task: when it waits on the main actor, without a turn on the serial
    /// lane (see ``VirtualExecutor/resumingOnMainActor(_:)``).
    func resume(returning idle: Bool) {
      if onMainActor {
        VirtualExecutor.resumingOnMainActor { continuation.resume(returning: idle) }
      } else {
        continuation.resume(returning: idle)
      }
    }
  }

  /// Judges the patience of the waiters that have one, `elapsed` (real time) after the last call:
  /// a waiter is given up on (resumed with false) once the scope has been busy in
  /// `patience.busyLooks` looks since the wait began, or the wait has reached `patience.limit`. Called by the
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
          // Busy looks are counted since the wait began, not in a row: the scope was never idle
          // meanwhile (the waiter would have been resumed), so a look that fell short of
          // `busyJobs` (a machine busy with other work) does not start the count again. A look
          // whose queue shrank is progress, not a loop: thousands of tasks that each run and end
          // drain it, where a `Task.yield()` loop keeps it as it was.
          if finishedJobs - waiter.finishedAtLook >= patience.busyJobs, inFlight >= waiter.inFlightAtLook {
            waiter.busyLooks += 1
          }
          waiter.finishedAtLook = finishedJobs
          waiter.inFlightAtLook = inFlight
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

  /// Whether the serial lane's thread has started.
  var isLaneStarted: Bool {
    condition.lock()
    defer { condition.unlock() }
    return laneStarted
  }

  /// How many jobs the scope has queued so far, on both lanes.
  var jobsQueued: UInt64 {
    condition.lock()
    defer { condition.unlock() }
    return queuedJobs
  }

  func isIdle(own: Int, drive: CallSite?) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    if let drive { lastDrive = drive }
    return inFlight - own <= 0
  }
}

// MARK: - A stall, as the scope keeps it

// The watchdog's look that finds a stalled test and moves time for it is in
// VirtualExecutor+Stall.swift; what the scope keeps of it until the test reports it is here.
@available(EffectsVirtualTime, *)
extension VirtualExecutor {
  /// What the scope's scheduler did for a stalled test: what was asleep, and where time went.
  /// Nothing is symbolicated here (that takes up to a few hundred milliseconds, and this runs on
  /// the watchdog's thread, whose looks at every scope must not come late): the report does it,
  /// on the test's task.
  struct MovedForStall: Sendable {
    /// How many tasks slept until ``to``.
    var count: Int
    /// Where the first of them was queued, and its resume points (where it slept, when its site
    /// names no line).
    var queuedAt: CallSite
    var sleptAt: [UInt]
    /// The instant time was moved to; for sleeps until the end of virtual time, the instant they
    /// slept until, which never comes (time stayed where it was).
    var to: Duration
    /// Whether the sleeping tasks were cancelled instead (they slept until the end of virtual
    /// time).
    var cancelled = false
  }

  /// A stall the scope has moved time for, waiting to be reported on the test's task.
  struct Stall {
    /// The first move; nil while it is being made (set first, so that the test's resumption,
    /// which the move may queue at once, is seen).
    var first: MovedForStall?
    /// How many times time was moved for the stalled test since the report.
    var times = 0
    /// The resume points of the test as it went on after the stall (its job, queued, not run):
    /// where it waited.
    var awaitedAt: [UInt] = []
  }

  /// Sets the scope's scheduler, which moves time for a stalled test, until the scope closes.
  ///
  /// Held strongly, not through a closure with a weak capture: that cost every scope two
  /// allocations (the closure's context and the scheduler's weak side table), which the benchmark
  /// `scopes.1e3.effects` counted. The cycle it makes (the scheduler holds its open scope) ends
  /// when the scope closes.
  func whenStalled(move scheduler: TestScheduler) {
    condition.lock()
    stalledScheduler = scheduler
    condition.unlock()
  }

  /// Reads where the test waited, when `job` (queued by the scope, not run yet) is the test's own
  /// resumption after a stall. Called with the lock held.
  func noteDriverResumedAfterStall(_ job: UnownedJob) {
    guard let driver, ScopeTasks.address(of: job) == driver, stall?.awaitedAt.isEmpty == true else { return }
    stall?.awaitedAt = ScopeTasks.resumePoints(ofQueuedTask: driver) ?? []
  }

  /// The stall since the last call, if any, for the test's task to report.
  func takeStall() -> Stall? {
    condition.lock()
    defer { condition.unlock() }
    // Not while the test has not gone on yet: its line is read when it does.
    guard let taken = stall, taken.first != nil, !taken.awaitedAt.isEmpty || closed else { return nil }
    stall = nil
    return taken
  }
}

// MARK: - The lanes' threads

/// Threads that run one piece of long-running work each, kept parked when it returns for the next
/// piece: the threads of scopes' serial lanes (``lanes``).
///
/// A scope starts its lane's thread with the lane's first job: a `@MainActor` test meets one as
/// soon as it awaits anything nonisolated (`await task.value`, whose getter is nonisolated, is
/// enough). Starting and ending a thread for each such scope cost about 22 µs of the 124 µs that
/// ten awaited steps take in a scope (`steps.1e1`, a size run by hand; `steps.1e3.effects` started
/// 107 threads in 101 scopes, and starts 6 now); handing the lane to a thread parked by an
/// earlier scope costs one wake-up. A thread whose lane was given up on (its job blocked) parks
/// when that job returns, or never. No more than `keptIdle` threads park at once; the others end.
///
/// What code under test leaves on a lane's thread (its `threadDictionary`, a pthread key, its
/// name or priority) is seen by the scopes the thread serves next, as on the threads of Swift's own
/// global executor, which every test shares. The lane's own thread-specific state is set and
/// cleared by each scope (`VirtualExecutor.lane`, `VirtualExecutor.resumption`).
final class ParkedThreads: Sendable {
  /// The threads of scopes' serial lanes: enough parked for the scopes of the tests that run in
  /// parallel on this machine.
  static let lanes = ParkedThreads(
    name: "swift-effects.VirtualExecutor",
    keptIdle: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
  )

  /// One thread, and the work it is given next.
  private final class Worker: @unchecked Sendable {
    let condition = NSCondition()
    /// Guarded by `condition`.
    var work: (@Sendable () -> Void)?
  }

  private let name: String
  private let keptIdle: Int
  /// For tests: called on a thread each time its work has returned, with whether it parked.
  private let afterWork: (@Sendable (_ parked: Bool) -> Void)?
  /// The parked threads, the last parked first.
  private let idle = Locked<[Worker]>([])

  init(name: String, keptIdle: Int, afterWork: (@Sendable (_ parked: Bool) -> Void)? = nil) {
    self.name = name
    self.keptIdle = keptIdle
    self.afterWork = afterWork
  }

  /// How many threads are parked now.
  var parkedCount: Int {
    idle.withLock { $0.count }
  }

  /// Runs `work` on a parked thread, or on a new one (8 MB of stack) when none is parked.
  func run(_ work: @escaping @Sendable () -> Void) {
    if let worker = idle.withLock({ $0.popLast() }) {
      worker.condition.lock()
      worker.work = work
      worker.condition.signal()
      worker.condition.unlock()
      return
    }
    let worker = Worker()
    worker.work = work
    let thread = Thread { [self] in serve(worker) }
    thread.name = name
    thread.stackSize = 8 << 20
    thread.start()
  }

  /// A thread's life: run what it was given, park, and run the next, until too many are parked.
  private func serve(_ worker: Worker) {
    while true {
      worker.condition.lock()
      while worker.work == nil { worker.condition.wait() }
      let work = worker.work
      worker.work = nil
      worker.condition.unlock()
      // In a pool of its own: the thread outlives the work, and used to drain what it
      // autoreleased by exiting.
      Platform.withAutoreleasePool { work?() }
      let parked = idle.withLock { idle in
        guard idle.count < keptIdle else { return false }
        idle.append(worker)
        return true
      }
      afterWork?(parked)
      guard parked else { return }
    }
  }
}

// MARK: - The lanes' watchdog

/// Watches the serial lane of every open scope for a job that does not return — a task that
/// blocks the lane's thread (a semaphore, a lock held across an `await`, `DispatchQueue.sync` onto
/// work of the scope) would otherwise stop every other task of the scope, and a test waiting for
/// them would hang.
///
/// One thread for the process looks at each lane every ``interval`` while a scope is open, and
/// sleeps otherwise. Each look reads a counter and a flag: the lanes pay nothing per job. A job
/// that something waits behind (a queued job, an advance), seen running across looks for
/// ``waitingLimit`` while its thread sleeps in the kernel and it queues no work, or for
/// ``busyLimit`` whatever it does, is given up on: the lane goes on on a new thread, and the scope reports the blocked job. The
/// thread's state comes from ``Platform/state(of:)``; where the platform cannot tell, a job is
/// held to ``waitingLimit``. Under the thread sanitizer, where a wait proves nothing, the lane
/// still goes on but nothing is reported: a job that never returns is reported by the scope's
/// end, as a task that did not end.
///
/// Under a debugger, nothing is given up on. Only time in which the job could run counts:
/// - A look that finds the lane's thread stopped (held by a debugger, or stopped by a signal)
///   starts the job's clock again.
/// - So does a look that comes more than ``stoppedGap`` late: the watchdog itself did not run in
///   between, so the whole process was stopped (at a breakpoint, or by `SIGSTOP` or Ctrl-Z).
/// - While a debugger is attached (``Platform/isTraced``), a job due to be given up on is spared
///   and its clock starts again. Stepping resumes every thread between steps, so the lane's
///   thread is not seen stopped at every look, and a job stepped through line by line may take
///   minutes; a debugger session is interactive, and a real hang still ends with the scope's end
///   or the test's time limit. Whether a debugger is attached is asked only when a job is due to
///   be given up on — once per ``waitingLimit`` at most, and never while every job returns.
@available(EffectsVirtualTime, *)
enum LaneWatchdog {
  /// How often the watchdog looks.
  static let interval: Duration = .milliseconds(100)
  /// How long a job may wait (blocked in the kernel) before it is given up on: far longer than
  /// any lock is held, even on a loaded machine.
  static let waitingLimit: Duration = .seconds(1) * slowdown
  /// How long a job may run at all before it is given up on: long enough for any real
  /// computation between two suspensions in a test.
  static let busyLimit: Duration = .seconds(10) * slowdown
  /// How much later than ``interval`` a look may come before the watchdog counts the process as
  /// stopped in between: far longer than a busy machine keeps a thread from running.
  static let stoppedGap: Duration = .milliseconds(500) * slowdown

  /// Whether the thread sanitizer runs: it slows every lock and every thread down many times
  /// (and holds locks of its own), so a long wait proves nothing there.
  static let isSanitized = RuntimeDoor.isThreadSanitized

  /// 5 under the thread sanitizer; 1 otherwise.
  private static var slowdown: Int {
    isSanitized ? 5 : 1
  }

  private struct Watched {
    unowned let executor: VirtualExecutor
    /// The lane's job count at the last look, and since when that job's time counts.
    var lastStarted: UInt64 = 0
    var runningSince: DispatchTime?
    /// The lane's ``VirtualExecutor/laneJobEnqueues`` at the last look.
    var lastEnqueues: UInt64 = 0
    /// For tests: whether a debugger counts as attached while this lane is looked at, instead of
    /// what ``Platform/isTraced`` says, and what to call each time a job is spared for it.
    var tracedOverride: (traced: Bool, whenSpared: @Sendable () -> Void)?
  }

  private final class Watcher: @unchecked Sendable {
    let condition = NSCondition()
    /// Guarded by `condition`.
    var watched: [ObjectIdentifier: Watched] = [:]
    /// Guarded by `condition`.
    var started = false
  }

  private static let watcher = Watcher()

  /// Starts watching `executor`'s lane until ``forget(_:)``.
  static func watch(_ executor: VirtualExecutor) {
    let watcher = watcher
    watcher.condition.lock()
    let wasIdle = watcher.watched.isEmpty
    watcher.watched[ObjectIdentifier(executor)] = Watched(executor: executor)
    if !watcher.started {
      watcher.started = true
      let thread = Thread { run(watcher) }
      thread.name = "swift-effects.LaneWatchdog"
      thread.start()
    }
    if wasIdle { watcher.condition.signal() }
    watcher.condition.unlock()
  }

  /// Stops watching `executor`: called when its scope closes, before it can be freed.
  static func forget(_ executor: VirtualExecutor) {
    watcher.condition.lock()
    watcher.watched[ObjectIdentifier(executor)] = nil
    watcher.condition.unlock()
  }

  private static func run(_ watcher: Watcher) {
    watcher.condition.lock()
    var lastLook = DispatchTime.now()
    while true {
      if watcher.watched.isEmpty {
        watcher.condition.wait()
        lastLook = .now()
        continue
      }
      _ = watcher.condition.wait(until: Date(timeIntervalSinceNow: interval.timeInterval))
      // Real time, not the number of looks: a look can come early (a scope opening wakes it).
      let now = DispatchTime.now()
      // Long overdue: the watchdog did not run in between, so the whole process was stopped.
      let sinceLastLook = elapsed(from: lastLook, to: now)
      let afterStop = sinceLastLook > interval + stoppedGap
      lastLook = now
      // Each lane is updated in place: writing it back by key while iterating would copy the
      // whole dictionary on every look (an allocation whose count would follow the wall clock).
      // (Not `for index in values.indices`: those indices hold a second reference to the storage.)
      var index = watcher.watched.startIndex
      while index != watcher.watched.endIndex {
        // Under the watcher's lock: `forget` (which takes it) runs before the executor goes.
        look(at: &watcher.watched.values[index], now: now, afterStop: afterStop)
        // The patience of waits for the scope is judged on the same looks: a wait costs nothing.
        watcher.watched.values[index].executor.judgeWaiters(elapsed: sinceLastLook, afterStop: afterStop)
        // So is whether the test waits while every task of its scope sleeps on virtual time.
        watcher.watched.values[index].executor.judgeStall(elapsed: sinceLastLook, afterStop: afterStop)
        watcher.watched.formIndex(after: &index)
      }
    }
  }

  /// One look at a lane: starts, restarts or stops the clock of its running job, and gives the
  /// job up when its time is over. `afterStop`: the process was stopped since the last look.
  private static func look(at watched: inout Watched, now: DispatchTime, afterStop: Bool) {
    let lane = watched.executor.laneSnapshot()
    // Whether the running job queued work since the last look: then it is working, not blocked.
    let queuedWork = lane.enqueues != watched.lastEnqueues
    defer {
      watched.lastStarted = lane.started
      watched.lastEnqueues = lane.enqueues
    }
    guard lane.running else {
      watched.runningSince = nil
      return
    }
    guard let since = watched.runningSince, lane.started == watched.lastStarted, !afterStop else {
      watched.runningSince = now
      return
    }
    let runningFor = elapsed(from: since, to: now)
    guard runningFor >= waitingLimit else { return }
    let state = lane.thread.map(Platform.state(of:)) ?? .unknown
    // Held by a debugger, or stopped by a signal: none of that time is the job's.
    guard state != .stopped else {
      watched.runningSince = now
      return
    }
    // A job that queued work since the last look is working (its thread waits on a lock the
    // lane shares, on a busy machine), not blocked: held to the limit of a busy job.
    let waiting = state != .running && !queuedWork
    let limit = waiting ? waitingLimit : busyLimit
    guard runningFor >= limit else { return }
    // Due to be given up on: the one moment the platform is asked whether a debugger is attached.
    guard !(watched.tracedOverride?.traced ?? Platform.isTraced) else {
      watched.runningSince = now
      watched.tracedOverride?.whenSpared()
      return
    }
    watched.executor.replaceBlockedLane(
      job: lane.started,
      after: limit,
      waiting: waiting,
      reported: !isSanitized
    )
    watched.runningSince = nil
  }

  private static func elapsed(from start: DispatchTime, to end: DispatchTime) -> Duration {
    .nanoseconds(Int64(end.uptimeNanoseconds - start.uptimeNanoseconds))
  }

  // MARK: For tests

  /// Runs `body` with the watchdog taking a debugger as attached (`traced`) or not while it looks
  /// at `executor`'s lane, whatever ``Platform/isTraced`` says, calling `whenSpared` (on the
  /// watchdog's thread) each time it spares a job for that debugger; then asks the platform again.
  /// Only that lane is affected, so tests running at the same time see the real answer.
  static func withTraced<R>(
    _ traced: Bool,
    for executor: VirtualExecutor,
    whenSpared: @escaping @Sendable () -> Void = {},
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> R
  ) async rethrows -> R {
    setTracedOverride((traced, whenSpared), for: executor)
    defer { setTracedOverride(nil, for: executor) }
    return try await body()
  }

  private static func setTracedOverride(
    _ traced: (traced: Bool, whenSpared: @Sendable () -> Void)?,
    for executor: VirtualExecutor
  ) {
    watcher.condition.lock()
    watcher.watched[ObjectIdentifier(executor)]?.tracedOverride = traced
    watcher.condition.unlock()
  }
}

// MARK: - The main lane's stand-in for the main actor

/// The main actor's executor as the tasks of a virtual-time scope see it.
///
/// While a scope is open, the runtime asks ``RuntimeHooks`` for the main actor's executor on every
/// hop to the main actor; from inside a scope the answer is this proxy. Its `enqueue` hands the
/// job to the scope, which counts it and runs it on the main queue — where the main actor's own
/// executor runs jobs — so the code keeps real main-actor isolation and the scope knows when it
/// is done.
///
/// One proxy serves every scope, and lives for the whole process: a main-actor task keeps its
/// executor while suspended, so a task of a scope that is resumed after the scope closed still
/// finds the proxy, which then runs the job on the main queue like the main actor would.
@available(EffectsVirtualTime, *)
final class MainActorProxy: SerialExecutor {
  static let shared = MainActorProxy()

  private init() {}

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    if VirtualExecutor.take(job, onMainActor: true) { return }
    // No open scope owns it: run it as the main actor would.
    DispatchQueue.main.async {
      job.runSynchronously(on: MainActorProxy.shared.asUnownedSerialExecutor())
    }
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }

  /// Its jobs run on the main queue: that is what being on the main actor means here.
  func checkIsolated() {
    dispatchPrecondition(condition: .onQueue(.main))
  }
}

/// An actor whose executor is ``MainActorProxy``: awaiting one of its methods moves a main-actor
/// task onto the proxy, so the scope counts it from then on (its later wake-ups are queued there).
@available(EffectsVirtualTime, *)
actor MainLane {
  static let shared = MainLane()

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    MainActorProxy.shared.asUnownedSerialExecutor()
  }

  /// Does nothing: calling it is the hop.
  func enter() {}
}

/// What a scope tells after each of its main-actor jobs: a ``ModelTester`` records the change the
/// job made to its model. Called on the main thread, as the main actor, before the job is counted
/// as done, so a wait for the scope returns after the observer has seen it.
protocol MainJobObserver: AnyObject, Sendable {
  /// A main-actor job has run: `task` is its task's address (0 for a job that is not a task);
  /// `isTest`, whether that task is the scope's driver, the test itself.
  func mainJobRan(task: UInt, isTest: Bool)
}
