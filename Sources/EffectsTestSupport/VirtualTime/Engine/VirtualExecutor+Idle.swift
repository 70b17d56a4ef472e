import Effects
import Foundation

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
