import Dispatch
import Effects

extension TestScheduler {
  /// Runs `check` when the scope open on this scheduler ends, after its leftover work is reported
  /// (a scope nested in another runs it when the outer one ends).
  func atScopeEnd(_ check: @escaping @Sendable () -> Void) {
    state.withLock { $0.scopeEndChecks.append(check) }
  }
}

@available(EffectsVirtualTime, *)
extension TestScheduler {
  /// How long the end of a scope waits, in real time, for cancelled tasks suspended outside it to
  /// end (five times longer under the thread sanitizer, which slows every thread down). A passing
  /// test never waits: its tasks have ended, and nothing is cancelled. Waiting for the scope's own
  /// tasks to settle is judged by what they do instead (``VirtualExecutor/Patience/scopeEnd``), so
  /// a busy machine never makes a passing test fail.
  static let scopeEndGrace: Duration = .milliseconds(LaneWatchdog.isSanitized ? 1_250 : 250)

  /// ``scopeEndGrace`` from now.
  private static func graceDeadline() -> DispatchTime {
    .now() + .milliseconds(Int(scopeEndGrace / .milliseconds(1)))
  }

  /// Ends a scope exhaustively: work still scheduled, sleepers never resumed, and tasks of the
  /// scope still suspended on anything else are reported, then cancelled; a task that does not end
  /// after cancellation is reported, and the scope returns anyway. When the test expects
  /// leftovers, they are left as they are.
  func endScope(
    _ executor: VirtualExecutor,
    at scope: IssueSite,
    leftoverWork: LeftoverWork,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    // Tasks started last reach their first suspension (a sleep, say) before anything is read.
    let settled = await settle(executor, drive: nil, patience: .scopeEnd)
    guard leftoverWork == .reported else { return }
    let leftovers = removeAllWork()
    guard settled else {
      // Tasks that never all suspend: report that, and cancel what can be cancelled, so that
      // they stop rather than spin on after the test.
      reportStillRunning(at: scope)
      for sleeper in leftovers.sleepers {
        sleeper.resume(throwing: CancellationError())
      }
      for task in executor.unfinishedTasks() ?? [] {
        _ = ScopeTasks.cancel(task.address)
      }
      return
    }
    reportLeftovers(leftovers.entries, at: scope)
    for sleeper in leftovers.sleepers {
      sleeper.resume(throwing: CancellationError())
    }
    guard await settle(executor, drive: nil, patience: .scopeEnd) else {
      reportStillRunning(at: scope)
      return
    }
    await cancelUnfinishedTasks(of: executor, at: scope, deadline: Self.graceDeadline())
    // What cancelled tasks scheduled on their way out goes too (a sleeper is told it is cancelled).
    for sleeper in removeAllWork().sleepers {
      sleeper.resume(throwing: CancellationError())
    }
  }

  /// Empties the queue, returning what it held.
  private func removeAllWork() -> (entries: [TimerQueue.Entry], sleepers: [UnsafeContinuation<Void, any Error>]) {
    state.withLock { $0.removeAll() }
  }

  /// Cancels the tasks of the scope that have not ended, waits up to `deadline` for them to end,
  /// and reports them.
  private func cancelUnfinishedTasks(
    of executor: VirtualExecutor,
    at scope: IssueSite,
    deadline: DispatchTime,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    guard let unfinished = executor.unfinishedTasks(), !unfinished.isEmpty else { return }
    for task in unfinished {
      // The runtime not showing the task cancelled means its layout is not the one this code
      // knows: then nothing it reads of a task's status can be trusted, so nothing is reported.
      guard ScopeTasks.cancel(task.address) else { return }
    }
    var stuck = unfinished
    while true {
      guard await settle(executor, drive: nil, patience: .scopeEnd) else { break }
      stuck = stuck.filter { ScopeTasks.hasEnded($0.address) == false }
      if stuck.isEmpty || DispatchTime.now() >= deadline { break }
      // A cancelled task may end through work outside the scope (a real sleep's cancellation,
      // I/O): give it a moment of real time.
      await pause(.milliseconds(5))
    }
    let stuckAddresses = Set(stuck.map(\.address))
    for (startedAfter, tasks) in Dictionary(grouping: unfinished, by: { $0.startedAfter?.description ?? "" })
      .sorted(by: { $0.key < $1.key })
    {
      let count = tasks.count
      let ignoring = tasks.filter { stuckAddresses.contains($0.address) }.count
      let started = startedAfter.isEmpty ? "before the first advance" : "after the advance at \(startedAfter)"
      let outcome =
        ignoring == 0
        ? "\(count == 1 ? "It was" : "They were") cancelled, and ended."
        : """
        \(count == 1 ? "It was" : "They were") cancelled, and \(ignoring == count ? (count == 1 ? "it" : "they") : "\(ignoring) of them") \
        did not end within \(Self.scopeEndGrace.literal): code that ignores cancellation outlives the test.
        """
      scope.report(
        """
        withVirtualTime ended with \(count == 1 ? "a task" : "\(count) tasks") started in this scope \(started) \
        still suspended, waiting for something other than the scheduler: a stream that never yields, a continuation never resumed, a task it \
        awaits, a real sleep or I/O. \(outcome) Let the task finish (or cancel it) before the scope ends; if the test \
        means to leave it running, open the scope with leftoverWork: .expected.
        """
      )
    }
  }

  /// Reports each leftover piece of work at the line that scheduled it, one issue per line.
  private func reportLeftovers(_ entries: [TimerQueue.Entry], at scope: IssueSite) {
    let now = elapsed
    let sorted = entries.sorted { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
    var lines: [String] = []
    var bySite: [String: [TimerQueue.Entry]] = [:]
    for entry in sorted {
      let key = entry.callSite.description
      if bySite[key] == nil { lines.append(key) }
      bySite[key, default: []].append(entry)
    }
    for key in lines {
      guard let group = bySite[key], let first = group.first else { continue }
      let what: String
      let fix: String
      // A sleep on the clock of a scope's own environment has no line of the test's to name: the
      // clock was made by test support (for a trait), or for the scope at its own line (for
      // `withVirtualTime`), since a `Clock`'s sleep takes no source location. It is reported at
      // the scope, naming the clock.
      let isSleep = if case .sleep = first.work { true } else { false }
      let unnamed =
        ReadSite.isLibrarySource("\(first.callSite.filePath)")
        || (isSleep && scope.callSite.map { "\($0)" } == first.callSite.description)
      let place = unnamed ? "inside the library" : "here"
      switch first.work {
      case .sleep:
        let clock = unnamed ? "on environment.continuousClock" : place
        what = group.count == 1 ? "a task sleeping \(clock)" : "\(group.count) tasks sleeping \(clock)"
        fix = "It got CancellationError. Advance time past the sleep before the scope ends, or cancel the task"
      case .once:
        what = group.count == 1 ? "work scheduled \(place)" : "\(group.count) pieces of work scheduled \(place)"
        fix = """
          \(group.count == 1 ? "It was" : "They were") cancelled. Advance time past \
          \(group.count == 1 ? "it" : "them") (advance(by:), run()) before the scope ends, or cancel \
          \(group.count == 1 ? "it" : "them")
          """
      case .repeating(let interval, _):
        what = "a repeating timer scheduled \(place) (every \(interval.literal))"
        fix = "It was cancelled. Cancel the timer before the scope ends"
      }
      let due = group.map(\.deadline.literal).joined(separator: ", ")
      let message = """
        withVirtualTime at \(scope) ended with \(what) still pending (due at \(due); virtual time was \
        \(now.literal)). \(fix); if the test means to leave it, open the scope with leftoverWork: .expected.
        """
      if unnamed {
        scope.report(message)
      } else {
        reportIssue(message, at: first.callSite)
      }
    }
  }

  /// Reports tasks of the scope that kept running after its operation returned (see
  /// ``VirtualExecutor/Patience/scopeEnd``).
  private func reportStillRunning(at scope: IssueSite) {
    let patience = VirtualExecutor.Patience.scopeEnd
    let limit = patience.limit ?? .zero
    scope.report(
      """
      withVirtualTime found tasks of the scope still running after its operation returned, never all \
      suspending — a loop of Task.yield() (\(patience.busyJobs) jobs or more in \(patience.interval.literal) of real \
      time), or a job that did not return for \(limit.literal) (a task blocked on the scope's thread). They \
      were cancelled; the scope ends without waiting for them. Let every task suspend or end before the scope \
      ends: a loop that waits for something should sleep on the scheduler or await it.
      """
    )
  }

  /// Suspends for `duration` of real time, without a `Task.sleep` (which the scope would report).
  private func pause(_ duration: Duration, isolation: isolated (any Actor)? = #isolation) async {
    await withCheckedContinuation(isolation: isolation) { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().asyncAfter(
        deadline: .now() + .milliseconds(Int(duration / .milliseconds(1)))
      ) {
        continuation.resume()
      }
    }
  }
}
