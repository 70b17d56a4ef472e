import Effects

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The concurrency runtime's global-enqueue hook, installed only while a virtual-time scope is open.
///
/// `swift_task_enqueueGlobal_hook` (declared in the Swift runtime's `ConcurrencyHooks.def`) is a
/// variable of libswift_Concurrency: when set, every job the runtime would hand to the global
/// concurrent executor — a new `Task {}`, a task resuming after an `await`, a default actor's
/// turn — goes to it, with the original enqueue function to fall back on. Our hook takes a job
/// for a ``VirtualExecutor`` when the enqueuing task is inside its scope (a task-local) or when
/// the enqueue happens on that executor's own thread; every other job goes to the original
/// executor untouched, so tests running in parallel outside any scope are not affected.
///
/// The hook is installed when the first scope opens and removed when the last one closes: no
/// global state outlives the scopes.
enum GlobalEnqueueHook {
  typealias Original = @convention(thin) (UnownedJob) -> Void
  typealias Hook = @convention(thin) (UnownedJob, Original) -> Void
  /// `swift_job_run(job, executor)`, with the executor passed as its two words.
  typealias RunJob = @convention(thin) (UnownedJob, UnsafeRawPointer?, UInt) -> Void

  nonisolated(unsafe) private static let slot: UnsafeMutablePointer<Hook?>? = {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook") else { return nil }
    return symbol.assumingMemoryBound(to: Hook?.self)
  }()

  private static let runJob: RunJob? = {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "swift_job_run") else { return nil }
    return unsafeBitCast(symbol, to: RunJob.self)
  }()

  /// How many scopes are open.
  private static let installs = Locked(0)

  private static let hook: Hook = { job, original in
    if let executor = VirtualExecutor.scope ?? VirtualExecutor.onCurrentThread, executor.enqueue(job) {
      return
    }
    original(job)
  }

  /// Why the hook cannot be used here, or nil when it can.
  static var unavailableReason: String? {
    if slot == nil || runJob == nil {
      return "the concurrency runtime does not export swift_task_enqueueGlobal_hook and swift_job_run"
    }
    return nil
  }

  /// Installs the hook for one more scope. False when it is unavailable or another hook is set.
  static func retain() -> Bool {
    guard let slot, runJob != nil else { return false }
    return installs.withLock { count in
      if count == 0 {
        guard slot.pointee == nil else { return false }
        slot.pointee = hook
      }
      count += 1
      return true
    }
  }

  /// Removes the hook when the last scope closes.
  static func release() {
    guard let slot else { return }
    installs.withLock { count in
      count -= 1
      if count == 0 { slot.pointee = nil }
    }
  }

  /// Runs `job` on the current thread as the global executor would (on the generic executor).
  static func run(_ job: UnownedJob) {
    runJob?(job, nil, 0)
  }
}
