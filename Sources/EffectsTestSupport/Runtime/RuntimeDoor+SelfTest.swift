import Effects

extension RuntimeDoor {
  /// What the self-test found: the assumptions of the table that do not hold here.
  struct Findings: Sendable, Equatable {
    /// The assumptions that do not hold (checked, or forced by a test).
    var broken: Set<Assumption> = []
    /// What a required function or hook is called that the runtime does not export.
    var missing: [String] = []

    /// Why no scope can open here, in plain words; nil when one can.
    var cannotOpen: String? {
      if !missing.isEmpty { return "this concurrency runtime does not export \(missing.joined(separator: ", "))" }
      if broken.contains(.functions) {
        return "this concurrency runtime's swift_task_getCurrent does not answer the running task"
      }
      if broken.contains(.hooks) { return "this concurrency runtime's hooks are not the ones this library knows" }
      if broken.contains(.jobFlags) {
        return """
          this concurrency runtime's job layout is not one this library knows (the running task's flags do not \
          say it is a task), so the scope could not tell its tasks from other jobs
          """
      }
      return nil
    }

    /// The report of what degrades here, once per process, in plain words; nil when nothing does.
    /// Task status has a warning of its own (`VirtualTimeAvailability.taskStatusUnreadable`).
    var degraded: String? {
      let lines = Assumption.degradable.filter(broken.contains).map { "- \(RuntimeDoor.consequence(of: $0))" }
      guard !lines.isEmpty else { return nil }
      return """
        withVirtualTime checked the Swift runtime it runs on, and \(lines.count == 1 ? "one thing differs" : "\(lines.count) things differ") \
        from the runtimes this library knows. Virtual time stays exact; what changes:
        \(lines.joined(separator: "\n"))
        Said once per test process.
        """
    }
  }

  /// What a broken assumption that does not stop a scope changes, in plain words.
  static func consequence(of assumption: Assumption) -> String {
    switch assumption {
    case .asyncContexts:
      return """
        a suspended task's async frames are not laid out as this library knows, so a report of a sleeping or \
        suspended task names the scope's line, not the line where the task waits.
        """
    case .taskLocalStorage:
      return """
        swift_task_localValueGet does not answer what TaskLocal.get() answers, so the scope is read with get() on \
        each hop to the main actor (slower, as exact).
        """
    case .durationWords:
      return """
        Duration is not laid out as two words of attoseconds, so the scheduler's keys are made from \
        Duration.components (slower, as exact).
        """
    case .demangler:
      return """
        swift_demangle is missing or answers wrong, so a read of the live world or of an unimplemented co-effect is \
        placed where the environment was made, not at the line that read.
        """
    case .schedulingExecutorName:
      return """
        this runtime's SchedulingExecutor is not found by its mangled name, so a Task.sleep in code under test \
        may wait in real time without being reported.
        """
    case .functions, .hooks, .jobFlags, .taskStatus:
      return "\(assumption.rawValue) does not hold."
    }
  }

  /// The findings for the scope opening now: checked once per process, at the first scope, with
  /// `driver`, the task opening it; under a test's forced conditions, checked again with those.
  @available(EffectsVirtualTime, *)
  static func findings(driver: UnownedJob?, isolation: isolated (any Actor)? = #isolation) async -> Findings {
    if let forced = VirtualTimeAvailability.forced {
      return await selfTest(driver: driver, forcing: forced.brokenAssumptions)
    }
    if let found = checked.snapshot { return found }
    let found = await selfTest(driver: driver, forcing: [])
    return checked.withLock { checked in
      if let first = checked { return first }
      checked = found
      return found
    }
  }

  private static let checked = Locked<Findings?>(nil)

  /// Checks every assumption of the table, on this runtime, from `driver` (the running task):
  /// each that does not hold, or that `broken` forces, is in the answer.
  @available(EffectsVirtualTime, *)
  static func selfTest(
    driver: UnownedJob?,
    forcing broken: Set<Assumption>,
    isolation: isolated (any Actor)? = #isolation
  ) async -> Findings {
    var findings = Findings()
    findings.missing = (requiredFunctions + RuntimeHooks.hookNames).filter { !exports($0) }
    let current = withUnsafeCurrentTask { task in
      task.map { UInt(bitPattern: unsafeBitCast($0, to: UnsafeRawPointer.self)) }
    }
    let holds: [Assumption: Bool] = [
      .functions: driver.map(address(of:)) == current && current != nil && driver.flatMap(taskID(of:)) != nil,
      .hooks: RuntimeHooks.hookNames.allSatisfy(exports),
      .jobFlags: driver.map(isTask) ?? false,
      .taskStatus: driver.map(calibrateStatus(on:)) ?? false,
      .asyncContexts: await checkAsyncContexts(),
      .taskLocalStorage: readsTaskLocalsDirectly,
      .durationWords: durationIsTwoWords,
      .demangler: demanglerWorks,
      .schedulingExecutorName: checkSchedulingExecutorName(),
    ]
    findings.broken = Set(holds.filter { !$0.value }.map(\.key)).union(broken)
    return findings
  }

  /// Whether a task suspended on a continuation is the continuation's address, and its frames
  /// can be walked from there to a function in a loaded image.
  private static func checkAsyncContexts(isolation: isolated (any Actor)? = #isolation) async -> Bool {
    guard let task = currentTaskJob.map(address(of:)) else { return false }
    return await withUnsafeContinuation { continuation in
      let points = resumePoints(ofSuspendedTask: task) ?? []
      continuation.resume(returning: taskAddress(of: continuation) == task && !points.isEmpty)
    }
  }

  /// Whether the mangled name of `SchedulingExecutor` is found wherever the compiler knows the
  /// runtime has the protocol. Only a build made with a compiler older than 6.3 relies on the
  /// name; it cannot check it.
  private static func checkSchedulingExecutorName() -> Bool {
    #if compiler(>=6.3)
    if #available(EffectsSchedulingExecutor , *) { return runtimeHasSchedulingExecutor }
    #endif
    return true
  }
}

extension RuntimeDoor.Assumption {
  /// The assumptions whose failure leaves a scope working, with less; in the table's order.
  static let degradable: [Self] = [
    .asyncContexts, .taskLocalStorage, .durationWords, .demangler, .schedulingExecutorName,
  ]
}
