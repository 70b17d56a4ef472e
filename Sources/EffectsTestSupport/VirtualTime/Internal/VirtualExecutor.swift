import Effects
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
final class VirtualExecutor: TaskExecutor, @unchecked Sendable {
  /// The executor of the scope the current task is in.
  @TaskLocal static var scope: VirtualExecutor?

  private static let threadKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// The executor whose job is running on this thread, if any.
  static var onCurrentThread: VirtualExecutor? {
    guard let pointer = pthread_getspecific(threadKey) else { return nil }
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
  private var closed = false
  /// Tasks waiting for the count to reach zero.
  private var idleWaiters: [UnsafeContinuation<Void, Never>] = []
  private var escapes: [Escape] = []
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
    let thread = Thread { [self] in loop() }
    thread.name = "swift-effects.VirtualExecutor"
    thread.stackSize = 8 << 20
    thread.start()
  }

  // MARK: Queueing

  /// Queues a job enqueued from inside the scope on the serial lane; false once the scope is
  /// closed (the caller then hands it to the global executor).
  func enqueueGlobal(_ job: UnownedJob) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard !closed else { return false }
    adopt(job)
    inFlight += 1
    jobs.append(job)
    condition.signal()
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

  /// Records a task the first time the scope queues one of its jobs. Called with the lock held.
  private func adopt(_ job: UnownedJob) {
    guard ScopeTasks.isTask(job), let id = ScopeTasks.id(of: job) else { return }
    let address = ScopeTasks.address(of: job)
    guard adopted.updateValue(id, forKey: address) != id else { return }
    ScopeTasks.adopt(address: address, id: id, by: self)
  }

  /// Counts a main-actor job of the scope and runs it on the main queue, as the main actor's
  /// executor would; false once the scope is closed.
  func enqueueMain(_ job: UnownedJob) -> Bool {
    condition.lock()
    guard !closed else {
      condition.unlock()
      return false
    }
    adopt(job)
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
    let previous = pthread_getspecific(Self.threadKey)
    pthread_setspecific(Self.threadKey, Unmanaged.passUnretained(self).toOpaque())
    defer { pthread_setspecific(Self.threadKey, previous) }
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

  /// Records something that reached the scope from outside it, described for the report.
  func recordEscape(_ description: String) {
    condition.lock()
    escapes.append(Escape(description: description, during: lastDrive))
    condition.unlock()
  }

  // MARK: Waiting

  /// Returns once no job of the scope is queued or running, other than the caller's own (which
  /// suspends, or is the only one left).
  ///
  /// `drive` is the async form waiting: escapes that happen after it returns are reported at it.
  func whenIdle(drive: CallSite?, isolation: isolated (any Actor)? = #isolation) async {
    // A job running on one of the scope's lanes is the caller's own: when it is the only one,
    // the scope is idle now.
    let own = Self.onCurrentThread === self ? 1 : 0
    if isIdle(own: own, drive: drive) { return }
    await withUnsafeContinuation(isolation: isolation) { (continuation: UnsafeContinuation<Void, Never>) in
      condition.lock()
      if inFlight - own == 0 {
        condition.unlock()
        continuation.resume()
        return
      }
      idleWaiters.append(continuation)
      condition.unlock()
    }
  }

  /// ``whenIdle(drive:isolation:)`` after leaving the caller's actor, so that the jobs queued on it
  /// can run (and be counted) meanwhile.
  @concurrent func whenIdleAwayFromActor(drive: CallSite?) async {
    await whenIdle(drive: drive, isolation: nil)
  }

  private func isIdle(own: Int, drive: CallSite?) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    if let drive { lastDrive = drive }
    return inFlight - own == 0
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
    condition.signal()
    condition.unlock()
    ScopeTasks.release(self)
  }

  // MARK: The serial lane

  /// One job of the scope has run: wake the waiters when it was the last.
  private func finished() {
    condition.lock()
    let ready = finishedLocked()
    condition.unlock()
    for waiter in ready {
      waiter.resume()
    }
  }

  /// Counts one job of the scope as run, returning the waiters to resume when it was the last.
  /// Called with the lock held.
  private func finishedLocked() -> [UnsafeContinuation<Void, Never>] {
    inFlight -= 1
    guard inFlight == 0, !idleWaiters.isEmpty else { return [] }
    defer { idleWaiters = [] }
    return idleWaiters
  }

  private func loop() {
    pthread_setspecific(Self.threadKey, Unmanaged.passUnretained(self).toOpaque())
    let taskExecutor = asUnownedTaskExecutor()
    condition.lock()
    while true {
      if head < jobs.count {
        let job = jobs[head]
        head += 1
        if head == jobs.count {
          jobs.removeAll(keepingCapacity: true)
          head = 0
        }
        condition.unlock()
        // Run as the current task executor, so that `Task.yield()` comes back here.
        job.runSynchronously(on: taskExecutor)
        condition.lock()
        let ready = finishedLocked()
        if !ready.isEmpty {
          condition.unlock()
          for waiter in ready { waiter.resume() }
          condition.lock()
        }
      } else if closed {
        break
      } else {
        condition.wait()
      }
    }
    condition.unlock()
    pthread_setspecific(Self.threadKey, nil)
  }
}
