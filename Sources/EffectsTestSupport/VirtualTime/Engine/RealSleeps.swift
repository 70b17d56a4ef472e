#if compiler(>=6.3)
import Dispatch
@_spi(ExperimentalScheduling) import _Concurrency

/// A real timed wait — `Task.sleep`, `ContinuousClock.sleep` — is scheduled on the current
/// executor when that executor can schedule. Both of a scope's executors (its serial lane, and the
/// main-actor proxy) can: they record the wait as an escape, then wait for real, as the default
/// executor would.
@available(EffectsSchedulingExecutor, *)
protocol RecordingRealSleeps: SchedulingExecutor {}

@available(EffectsSchedulingExecutor, *)
extension RecordingRealSleeps {
  func enqueue<C: Clock>(
    _ job: consuming ExecutorJob,
    after delay: C.Duration,
    tolerance: C.Duration?,
    clock: C
  ) {
    enqueue(job, at: clock.now.advanced(by: delay), tolerance: tolerance, clock: clock)
  }

  func enqueue<C: Clock>(
    _ job: consuming ExecutorJob,
    at instant: C.Instant,
    tolerance: C.Duration?,
    clock: C
  ) {
    VirtualExecutor.current?.recordRealSleep(clock: clock, until: instant)
    if let scheduling = globalConcurrentExecutor as? any SchedulingExecutor {
      scheduling.enqueue(job, at: instant, tolerance: tolerance, clock: clock)
    } else {
      // A default executor that cannot schedule: wait on Dispatch instead.
      let job = UnownedJob(job)
      let seconds = Self.seconds(clock.now.duration(to: instant))
      DispatchQueue.global().asyncAfter(deadline: .now() + max(seconds, 0)) {
        globalConcurrentExecutor.enqueue(job)
      }
    }
  }

  private static func seconds<D: DurationProtocol>(_ duration: D) -> Double {
    (duration as? Duration)?.timeInterval ?? 0
  }
}

@available(EffectsSchedulingExecutor, *)
extension VirtualExecutor: RecordingRealSleeps {}

@available(EffectsSchedulingExecutor, *)
extension MainActorProxy: RecordingRealSleeps {}
#endif

@available(EffectsVirtualTime, *)
extension VirtualExecutor {
  /// Records that a job of this scope started a real wait on `clock`, until `instant`.
  func recordRealSleep<C: Clock>(clock: C, until instant: C.Instant) {
    recordRealSleep(of: clock.now.duration(to: instant) as? Duration, on: "\(C.self)")
  }

  /// Records that a job of this scope started a real wait of `duration` (when known) on `clock`.
  ///
  /// Called as the waiting task starts the wait: inside the continuation it suspends on (every
  /// sleep of the standard library enqueues its wake-up there), so that its chain of async calls
  /// can be read, and the report can name the line that slept.
  func recordRealSleep(of duration: Duration?, on clock: String) {
    let task = ScopeTasks.currentTask
    let wait = VirtualTimeWording.realWait(milliseconds: duration.map(Self.milliseconds), on: clock)
    var escape = Escape(
      description: VirtualTimeWording.realSleep(wait: wait),
      during: nil
    )
    escape.realWait = wait
    escape.sleptAt = task.flatMap { ScopeTasks.resumePoints(ofSuspendedTask: $0) } ?? []
    escape.byDriver = task != nil && task == driver
    condition.lock()
    escape.during = lastDrive
    escapes.append(escape)
    condition.unlock()
  }

  /// 20 for 19.96 ms: a measured wait, rounded to the millisecond for a message.
  private static func milliseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    return Int((Double(seconds) * 1e3 + Double(attoseconds) * 1e-15).rounded())
  }
}
