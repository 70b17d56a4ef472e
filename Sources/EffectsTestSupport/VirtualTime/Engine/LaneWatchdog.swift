import Effects
import Foundation

/// Watches the serial lane of every open scope for a job that does not return — a task that
/// blocks the lane's thread (a semaphore, a lock held across an `await`, `DispatchQueue.sync` onto
/// work of the scope) would otherwise stop every other task of the scope, and a test waiting for
/// them would hang.
///
/// One thread for the process looks at each lane every ``interval`` while a scope is open, and
/// sleeps otherwise. Each look reads a counter and a flag: the lanes pay nothing per job. A job
/// that something waits behind (a queued job, an advance), seen running across looks for
/// ``waitingLimit`` while its thread sleeps in the kernel, or for ``busyLimit`` whatever it does,
/// is given up on: the lane goes on on a new thread, and the scope reports the blocked job. The
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
    defer { watched.lastStarted = lane.started }
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
    let waiting = state != .running
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
