import Effects
import Foundation
import Synchronization

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
/// Every stored `var` is guarded by `condition`. This file holds the state, how jobs are queued,
/// the serial lane with its blocked-job rescue, and waiting until the scope is idle; which tasks
/// the scope owns is in `VirtualExecutor+Ownership.swift`.
@available(EffectsVirtualTime, *)
final class VirtualExecutor: TaskExecutor, @unchecked Sendable {
  /// The executor of the scope the current task is in.
  @TaskLocal static var scope: VirtualExecutor?

  static let lane = Platform.ThreadSpecific()

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

  @exclusivity(unchecked) var escapes: [Escape] = []
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
  init(driver: UInt?, driverPrefersLane: Bool) {
    self.driver = driver
    self.driverPrefersLane = driverPrefersLane
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
      inFlight += 1
      queuedJobs &+= 1
      jobs.append(job)
      let start = !laneStarted
      laneStarted = true
      condition.signal()
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
    guard !closed, laneTask != 0, laneTaskNext == nil, ScopeTasks.address(of: job) == laneTask else { return false }
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
    inFlight += 1
    queuedJobs &+= 1
    mainJobs.append(MainJob(job: job, hop: hop))
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
      let job = next.job
      mainHead += 1
      condition.unlock()
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
    condition.unlock()
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
    Self.lane.set(Unmanaged.passUnretained(self).toOpaque())
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
          finishedAtLook: finishedJobs
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
    /// The jobs finished when it was last looked at, and how long it has waited since it began.
    var finishedAtLook: UInt64
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
          // `busyJobs` (a machine busy with other work) does not start the count again.
          if finishedJobs - waiter.finishedAtLook >= patience.busyJobs { waiter.busyLooks += 1 }
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

// A test that awaits something while every task of its scope sleeps on virtual time — most often
// `await task.value` on a task asleep past the last advance — waits for ever: only the test moves
// time. The watchdog finds the scope so, the scope moves time to the next deadline itself, and the
// test is told where it waited (#42).

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

  /// How long the scope must look stalled before it moves time: a second (five under the thread
  /// sanitizer) the first time, since the test may be waiting for something real; one look after
  /// that, for the next sleep of the same wait.
  private var stallPatience: Duration {
    stallsMoved == 0 ? LaneWatchdog.waitingLimit : LaneWatchdog.interval
  }

  /// One look of the watchdog: whether the scope is stalled — its test suspended waiting on a
  /// task or a continuation, no job of the scope queued or running, no advance under way, nothing
  /// finished since the last look — and, once it has been for ``stallPatience``, moves time to
  /// the next deadline through ``stalledScheduler``. `afterStop`: the process was stopped since the last
  /// look (a debugger), which no stall is charged for.
  func judgeStall(elapsed: Duration, afterStop: Bool) {
    condition.lock()
    // A test in a real sleep of its own waits for real time, not for the scope: left alone (the
    // sleep is reported as such).
    let quiet =
      !closed && inFlight == 0 && idleWaiters.isEmpty && sleepingDriver == nil && finishedJobs == stallMark
      && !afterStop && !escapes.contains(where: \.byDriver)
    stallMark = finishedJobs
    guard quiet, let driver else {
      stalledFor = .zero
      condition.unlock()
      return
    }
    stalledFor += elapsed
    let due = stalledFor >= stallPatience
    let scheduler = stalledScheduler
    condition.unlock()
    guard due, ScopeTasks.isWaitingOnADependency(driver), !Platform.isTraced else {
      if due { resetStall() }
      return
    }
    condition.lock()
    if stall == nil { stall = Stall() }
    condition.unlock()
    let moved = movingTime(scheduler)
    condition.lock()
    stalledFor = .zero
    if let moved {
      stallsMoved += 1
      if stall?.first == nil { stall?.first = moved }
      stall?.times += 1
    } else if stall?.times == 0 {
      stall = nil
    }
    condition.unlock()
  }

  /// Moves time on `scheduler` as the scope's own work (on behalf of its lane), so that what it
  /// resumes is queued as the scope's, not as an escape from outside.
  private func movingTime(_ scheduler: TestScheduler?) -> MovedForStall? {
    let previous = Self.lane.value
    Self.lane.set(Unmanaged.passUnretained(self).toOpaque())
    defer { Self.lane.set(previous) }
    return scheduler?.moveTimeForStalledTest()
  }

  private func resetStall() {
    condition.lock()
    stalledFor = .zero
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
