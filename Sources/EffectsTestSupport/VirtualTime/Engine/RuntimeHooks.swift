import Effects

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
@available(EffectsVirtualTime, *)
enum RuntimeHooks {
  /// This library's hooks as addresses (a thin function is one pointer), in the order of
  /// ``hookNames``: how a slot is known to still hold one of them.
  private static let ours: [UInt] = [
    RuntimeDoor.address(ofHook: enqueueHook), RuntimeDoor.address(ofHook: mainHook),
    RuntimeDoor.address(ofHook: delayHook), RuntimeDoor.address(ofHook: deadlineHook),
  ]

  nonisolated(unsafe) private static let slots = RuntimeDoor.hookSlots

  /// How many scopes are open.
  private static let installs = Locked(0)

  private static let enqueueHook: RuntimeDoor.EnqueueHook = { job, original in
    if !VirtualExecutor.take(job, onMainActor: false) { original(job) }
  }

  private static let mainHook: RuntimeDoor.MainHook = { original in
    VirtualExecutor.isCurrentOpen ? MainActorProxy.shared.asUnownedSerialExecutor() : original()
  }

  private static let delayHook: RuntimeDoor.DelayHook = { nanoseconds, job, original in
    VirtualExecutor.current?.recordRealSleep(of: .nanoseconds(nanoseconds), on: "the global executor")
    original(nanoseconds, job)
  }

  private static let deadlineHook: RuntimeDoor.DeadlineHook = {
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

  /// The hook variables a scope sets, as the runtime exports them.
  static let hookNames = RuntimeDoor.hookNames

  /// Why a scope could not install the hooks.
  enum RetainFailure: Error {
    /// The runtime lacks something a scope needs (the reason says what).
    case unavailable(String)
    /// Another library has set these hooks, and they stay as it set them.
    case heldByAnotherLibrary([String])
  }

  /// Installs the hooks for one more scope; fails, changing nothing, when they are unavailable or
  /// another library has set one of them.
  static func retain() -> Result<Void, RetainFailure> {
    guard let slots else { return .failure(.unavailable("this concurrency runtime does not export its hooks")) }
    return installs.withLock { count in
      if count == 0 {
        let held = zip(hookNames, slots.values).filter { $0.1 != 0 }.map(\.0)
        guard held.isEmpty else { return .failure(.heldByAnotherLibrary(held)) }
        slots.enqueue.pointee = enqueueHook
        slots.main.pointee = mainHook
        slots.delay.pointee = delayHook
        slots.deadline.pointee = deadlineHook
      }
      count += 1
      return .success(())
    }
  }

  /// Removes the hooks when the last scope closes: only those that still hold this library's
  /// functions, so a hook another library set meanwhile stays as it set it.
  static func release() {
    guard let slots else { return }
    installs.withLock { count in
      count -= 1
      guard count == 0 else { return }
      let values = slots.values
      if values[0] == ours[0] { slots.enqueue.pointee = nil }
      if values[1] == ours[1] { slots.main.pointee = nil }
      if values[2] == ours[2] { slots.delay.pointee = nil }
      if values[3] == ours[3] { slots.deadline.pointee = nil }
    }
  }

  /// The hooks that no longer hold this library's functions while a scope is open: another
  /// library replaced them (swift-concurrency-extras' `withMainSerialExecutor` sets the enqueue
  /// hook and, when it ends, leaves its own there). Empty when every hook is still ours.
  static func replacedWhileOpen() -> [String] {
    guard let slots else { return [] }
    return installs.withLock { count in
      // Every advance asks: the common answer (all four still ours) reads four words, no array.
      guard count > 0, !slots.hold(ours) else { return [] }
      return zip(hookNames, zip(slots.values, ours)).filter { $0.1.0 != $0.1.1 }.map(\.0)
    }
  }
}
