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

  /// Whether the thread sanitizer runs: it slows every lock and every thread down many times
  /// (and holds locks of its own), so a long wait proves nothing there.
  static let isSanitized = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil

  /// 5 under the thread sanitizer; 1 otherwise.
  private static var slowdown: Int {
    isSanitized ? 5 : 1
  }

  private struct Watched {
    unowned let executor: VirtualExecutor
    /// The lane's job count at the last look, and when that job was first seen running.
    var lastStarted: UInt64 = 0
    var runningSince: DispatchTime?
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
    while true {
      if watcher.watched.isEmpty {
        watcher.condition.wait()
        continue
      }
      _ = watcher.condition.wait(until: Date(timeIntervalSinceNow: interval.timeInterval))
      // Real time, not the number of looks: a look can come early (a scope opening wakes it).
      let now = DispatchTime.now()
      for (key, var watched) in watcher.watched {
        // Read under the watcher's lock: `forget` (which takes it) runs before the executor goes.
        let lane = watched.executor.laneSnapshot()
        if !lane.running {
          watched.runningSince = nil
        } else if lane.started != watched.lastStarted || watched.runningSince == nil {
          watched.runningSince = now
        }
        watched.lastStarted = lane.started
        watcher.watched[key] = watched
        guard let since = watched.runningSince else { continue }
        let runningFor = Duration.nanoseconds(Int64(now.uptimeNanoseconds - since.uptimeNanoseconds))
        guard runningFor >= waitingLimit else { continue }
        let state = lane.thread.map(Platform.state(of:)) ?? .unknown
        let waiting = state == .waiting || state == .unknown
        let limit = waiting ? waitingLimit : busyLimit
        guard runningFor >= limit else { continue }
        watched.executor.replaceBlockedLane(
          job: lane.started,
          after: limit,
          waiting: waiting,
          reported: !isSanitized
        )
        watched.runningSince = nil
        watcher.watched[key] = watched
      }
    }
  }
}
