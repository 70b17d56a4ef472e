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
    guard let points = ScopeTasks.resumePoints(ofSuspendedOn: continuation) else { return nil }
    return ReadSite.firstFrameOfCodeUnderTest(inResumePoints: points)
  }
}

extension TestScheduler {
  /// Moves time for a test stalled in its scope (see `VirtualExecutor.judgeStall`): to the next
  /// deadline, when everything due then is a sleeping task (resumed, it runs in the scope as the
  /// test's own advance would run it; a callback would run here, on the watchdog's thread, outside
  /// the test's task). Answers what was asleep and where time went; nil when nothing moved. Runs
  /// on the watchdog's thread: nothing here symbolicates (see `VirtualExecutor.MovedForStall`).
  ///
  /// The sleepers are taken out and time moved in one hold of the lock, and no drive is begun: a
  /// test that goes on at once and advances meanwhile is never told that another call is running
  /// work, and nothing due can slip in between the check and the move.
  @available(EffectsVirtualTime, *)
  func moveTimeForStalledTest() -> VirtualExecutor.MovedForStall? {
    typealias Taken = (continuation: UnsafeContinuation<Void, any Error>, onMainActor: Bool)
    let found = state.withLock { state -> (deadline: Duration, first: CallSite, taken: [Taken], points: [UInt])? in
      guard state.driving == nil else { return nil }
      // Nothing due before the end of virtual time: a sleep until then never wakes, however far
      // time moves. Its task is cancelled instead, and time stays where it is.
      let deadline = state.queue.nextDeadline() ?? TimerQueue.never
      let due = state.queue.entries.filter { $0.deadline == deadline }.sorted { $0.sequence < $1.sequence }
      guard let first = due.first, due.allSatisfy({ if case .sleep = $0.work { true } else { false } }) else {
        return nil
      }
      // Still in the queue, so its chain of calls stays as it slept.
      var points: [UInt] = []
      if case .sleep(let continuation, _) = first.work, Self.namesNoLine(first.callSite, scope: state.scope?.site) {
        points =
          ScopeTasks.resumePoints(ofSuspendedOn: continuation) ?? []
      }
      var taken: [Taken] = []
      func take(_ work: TimerQueue.Work, id: UInt64) {
        guard case .sleep(let continuation, let index) = work else { return }
        taken.append((continuation, state.wakeSleeper(at: index, id: id).onMainActor))
      }
      if deadline < TimerQueue.never {
        while let (id, _, work) = state.queue.popEarliest(dueBy: deadline) { take(work, id: id) }
        state.elapsed = max(state.elapsed, deadline)
      } else {
        // Left in the queue: each sleeping task is cancelled below, out of the lock, and its
        // sleep's cancellation handler takes it out and ends it, as for any cancelled sleeper.
        for entry in due {
          if case .sleep(let continuation, _) = entry.work { taken.append((continuation, false)) }
        }
      }
      return (deadline, first.callSite, taken, points)
    }
    guard let found else { return nil }
    guard found.deadline < TimerQueue.never else {
      // The task, not only its sleep: a loop that sleeps again until it is cancelled ends too. The
      // scope keeps its tasks until it closes, which waits for this look of the watchdog.
      let cancelled = found.taken.filter { sleeper in
        ScopeTasks.cancel(RuntimeDoor.taskAddress(of: sleeper.continuation))
      }
      guard !cancelled.isEmpty else { return nil }
      return VirtualExecutor.MovedForStall(
        count: cancelled.count,
        queuedAt: found.first,
        sleptAt: found.points,
        to: found.deadline,
        cancelled: true
      )
    }
    for sleeper in found.taken {
      if sleeper.onMainActor {
        VirtualExecutor.resumingOnMainActor { sleeper.continuation.resume() }
      } else {
        sleeper.continuation.resume()
      }
    }
    return VirtualExecutor.MovedForStall(
      count: found.taken.count,
      queuedAt: found.first,
      sleptAt: found.points,
      to: found.deadline
    )
  }
}
