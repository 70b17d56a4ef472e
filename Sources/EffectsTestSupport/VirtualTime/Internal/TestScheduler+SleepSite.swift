import Effects

// Where a task asleep on virtual time went to sleep, when the sleep itself cannot say: a `Clock`'s
// `sleep(until:tolerance:)` takes no source location, so a sleep on `environment.continuousClock`
// is queued at the line that made the clock — inside the library for a scope's own environment.
// Its report goes to the line of the code under test that awaited the sleep instead, found on the
// sleeping task's chain of async calls.

extension TestScheduler {
  /// Whether `callSite`, where work was queued, is no line of the code under test: inside the
  /// library (the clock of a scope's own environment), or the scope's own line (the clock of the
  /// environment a `withVirtualTime` made).
  static func namesNoLine(_ callSite: CallSite, scope: FailureLocation?) -> Bool {
    ReadSite.isLibrarySource("\(callSite.filePath)") || (scope != nil && scope?.callSite == callSite)
  }

  /// The line of the code under test where the task suspended on `continuation` awaits (a task
  /// asleep in `clock.sleep(for:)`: the line that slept), when the platform can say; nil otherwise
  /// (Darwin: no symbolication; a runtime whose task layout this code does not know).
  ///
  /// The caller must hold the continuation (taken out of the queue, not resumed yet): the task's
  /// async contexts stay as they are only while nothing can resume it. Costs a symbolication:
  /// call it for a report, never on the way to one that may not come.
  static func awaitSite(of continuation: UnsafeContinuation<Void, any Error>) -> FailureLocation? {
    guard #available(EffectsVirtualTime , *) else { return nil }
    let task = UInt(bitPattern: unsafeBitCast(continuation, to: UnsafeRawPointer.self))
    guard let points = ScopeTasks.resumePoints(ofSuspendedTask: task) else { return nil }
    return ReadSite.firstFrameOfCodeUnderTest(inResumePoints: points)
  }
}
