import Effects

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The concurrency runtime's hooks that virtual-time scopes use, installed while at least one scope
/// is open and removed when the last one closes.
///
/// The hooks are variables of libswift_Concurrency (declared in the runtime's
/// `ConcurrencyHooks.def`); when one is set, the runtime calls it instead of its own function,
/// passing that function along:
/// - `swift_task_enqueueGlobal_hook` sees every job bound for the global concurrent executor — a
///   new `Task {}`, `async let` and task-group children, a task resuming after an `await`, a default
///   actor's turn. A job of a scope goes to that scope's serial lane; every other job goes on to the
///   global executor untouched, so tests running in parallel outside any scope are not affected.
/// - `swift_task_getMainExecutor_hook` is asked for the main actor's executor on every hop to the
///   main actor. From inside a scope it answers ``MainActorProxy``, so the scope counts main-actor
///   jobs too; elsewhere it answers the real main executor.
/// - `swift_task_enqueueGlobalWithDelay_hook` and `…WithDeadline_hook` see real timed waits
///   (`Task.sleep`); one started inside a scope is recorded as an escape, then performed as asked.
enum RuntimeHooks {
  typealias EnqueueOriginal = @convention(thin) (UnownedJob) -> Void
  typealias EnqueueHook = @convention(thin) (UnownedJob, EnqueueOriginal) -> Void
  typealias MainOriginal = @convention(thin) () -> UnownedSerialExecutor
  typealias MainHook = @convention(thin) (MainOriginal) -> UnownedSerialExecutor
  typealias DelayOriginal = @convention(thin) (UInt64, UnownedJob) -> Void
  typealias DelayHook = @convention(thin) (UInt64, UnownedJob, DelayOriginal) -> Void
  typealias DeadlineOriginal = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob) -> Void
  typealias DeadlineHook = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, DeadlineOriginal) -> Void

  /// The hook variables, found by name in the loaded runtime. Only written under `installs`' lock.
  private struct Slots {
    let enqueue: UnsafeMutablePointer<EnqueueHook?>
    let main: UnsafeMutablePointer<MainHook?>
    let delay: UnsafeMutablePointer<DelayHook?>
    let deadline: UnsafeMutablePointer<DeadlineHook?>
  }

  nonisolated(unsafe) private static let slots: Slots? = {
    let runtime = dlopen(nil, RTLD_NOW)
    guard let enqueue = dlsym(runtime, "swift_task_enqueueGlobal_hook"),
      let main = dlsym(runtime, "swift_task_getMainExecutor_hook"),
      let delay = dlsym(runtime, "swift_task_enqueueGlobalWithDelay_hook"),
      let deadline = dlsym(runtime, "swift_task_enqueueGlobalWithDeadline_hook")
    else { return nil }
    return Slots(
      enqueue: enqueue.assumingMemoryBound(to: EnqueueHook?.self),
      main: main.assumingMemoryBound(to: MainHook?.self),
      delay: delay.assumingMemoryBound(to: DelayHook?.self),
      deadline: deadline.assumingMemoryBound(to: DeadlineHook?.self)
    )
  }()

  /// How many scopes are open.
  private static let installs = Locked(0)

  private static let enqueueHook: EnqueueHook = { job, original in
    if !VirtualExecutor.take(job, onMainActor: false) { original(job) }
  }

  private static let mainHook: MainHook = { original in
    VirtualExecutor.current == nil ? original() : MainActorProxy.shared.asUnownedSerialExecutor()
  }

  private static let delayHook: DelayHook = { nanoseconds, job, original in
    VirtualExecutor.current?.recordRealSleep(of: .nanoseconds(nanoseconds), on: "the global executor")
    original(nanoseconds, job)
  }

  private static let deadlineHook: DeadlineHook = {
    seconds,
    nanoseconds,
    toleranceSeconds,
    toleranceNanoseconds,
    clock,
    job,
    original in
    // The runtime's clock ids: 1 is the continuous clock, 2 the suspending one.
    VirtualExecutor.current?.recordRealSleep(of: nil, on: clock == 2 ? "SuspendingClock" : "ContinuousClock")
    original(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job)
  }

  /// Why the hooks cannot be used here, or nil when they can.
  static var unavailableReason: String? {
    if slots == nil || !ScopeTasks.isAvailable {
      return
        "the concurrency runtime does not export the hooks it needs (swift_task_enqueueGlobal_hook, swift_task_getMainExecutor_hook)"
    }
    return nil
  }

  /// Installs the hooks for one more scope. False when they are unavailable or another library
  /// has set one of them.
  static func retain() -> Bool {
    guard let slots, ScopeTasks.isAvailable else { return false }
    return installs.withLock { count in
      if count == 0 {
        guard slots.enqueue.pointee == nil, slots.main.pointee == nil, slots.delay.pointee == nil,
          slots.deadline.pointee == nil
        else { return false }
        slots.enqueue.pointee = enqueueHook
        slots.main.pointee = mainHook
        slots.delay.pointee = delayHook
        slots.deadline.pointee = deadlineHook
      }
      count += 1
      return true
    }
  }

  /// Removes the hooks when the last scope closes.
  static func release() {
    guard let slots else { return }
    installs.withLock { count in
      count -= 1
      if count == 0 {
        slots.enqueue.pointee = nil
        slots.main.pointee = nil
        slots.delay.pointee = nil
        slots.deadline.pointee = nil
      }
    }
  }
}
