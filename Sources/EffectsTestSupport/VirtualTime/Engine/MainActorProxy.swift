import Dispatch

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
