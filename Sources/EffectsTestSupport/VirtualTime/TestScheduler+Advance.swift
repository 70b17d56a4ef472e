import Effects

extension TestScheduler {
  /// Moves virtual time forward by `duration`, running every action whose deadline is reached, in
  /// order, each at its own deadline; then leaves ``now`` at the end of the window.
  ///
  /// ```swift
  /// scheduler.schedule(after: .seconds(1)) { ticks.append(scheduler.elapsed) }
  /// scheduler.advance(by: .milliseconds(999))  // nothing yet
  /// scheduler.advance(by: .milliseconds(1))    // runs it, at exactly 1 second
  /// ```
  ///
  /// With no duration, it runs the work due now (zero-delay work, and what that schedules for now)
  /// without moving time: `scheduler.advance()`.
  ///
  /// Work scheduled by those actions runs in the same call when it falls inside the window. A
  /// negative `duration` is reported as an issue here and nothing moves. Sleeping tasks whose
  /// deadline is reached are resumed, but this synchronous form cannot wait for them, so it
  /// reports an issue naming the line where each went to sleep: test async code with
  /// `await advance(by:)` inside `withVirtualTime`. Called inside a virtual-time scope of this
  /// scheduler, where it is never right, it is reported at its line.
  ///
  /// Virtual time ends at `.seconds(Int64.max)` after ``start``. An advance past that end (a
  /// `.seconds(Int.max)` meant as "as far as it goes", or one huge advance too many) stops there,
  /// having run everything due before it, and never traps. Work due at or past the end — a
  /// `.seconds(Int.max)` timeout, a sleep that long, the next tick of a timer repeating that slowly —
  /// is due never, as under the live `DispatchScheduler`: no advance and no `run()` runs it, and it
  /// stays in ``pending`` (`due never`) until it is cancelled, or the end of the virtual-time
  /// scope reports it like any leftover.
  public func advance(
    by duration: Duration = .zero,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let caller = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let operation = "TestScheduler.advance(by:)"
    reportSynchronousDriveInScope(operation, at: caller)
    drain(caller: caller, operation: operation) {
      target(advancingBy: duration, at: caller, operation: operation).map(Goal.time)
    }
  }

  /// Moves virtual time forward to `instant`, an offset from ``start`` (compare ``elapsed``),
  /// running every action due on the way.
  ///
  /// The target is a `Duration`, not a `Date`, so it is exact: `advance(to: .seconds(3))` reaches
  /// the instant three seconds after the start however time got there. Moving backwards is
  /// reported as an issue here and nothing moves; an instant past `.seconds(Int64.max)`, where
  /// virtual time ends, moves time to that end (see ``advance(by:fileID:filePath:line:column:)``).
  public func advance(
    to instant: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let caller = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let operation = "TestScheduler.advance(to:)"
    reportSynchronousDriveInScope(operation, at: caller)
    drain(caller: caller, operation: operation) {
      target(advancingTo: instant, at: caller, operation: operation).map(Goal.time)
    }
  }

  /// Runs work until none is pending, moving time to each deadline in turn; ``now`` stays at the
  /// last one.
  ///
  /// Repeating work never ends: after ``maxRuns`` actions this stops and reports an issue at the
  /// line that scheduled the work still due. Use `advance(by:)` to run a repeating timer for a
  /// bounded time.
  public func run(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let caller = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    reportSynchronousDriveInScope("TestScheduler.run()", at: caller)
    drain(caller: caller, operation: "TestScheduler.run()") { .untilNothingIsPending }
  }

  /// Reports `operation`, a synchronous form, called while a virtual-time scope is open on this
  /// scheduler and the scope has tasks: a task asleep on the scheduler, or one the scope started
  /// that has not ended. The synchronous form cannot wait for them, so whether the test passes
  /// depends on how far they got. Most often it is an `await` forgotten in a
  /// `withVirtualTime { scheduler in … }` closure with no other `await`, which Swift infers
  /// synchronous, so the compiler picks this form and says nothing. A scope with no task (a
  /// synchronous test of callbacks under `@Suite(.virtualTime)`) is driven exactly by it, and says
  /// nothing. The work still runs, as it would have.
  private func reportSynchronousDriveInScope(_ operation: String, at caller: CallSite) {
    let open = state.withLock { state in
      state.scope.map {
        (site: $0.site, executor: $0.executor, sleepers: state.sleeperSlots.count > state.freeSleeperSlots.count)
      }
    }
    guard let open, open.sleepers || Self.hasTasks(open.executor) else { return }
    let scope =
      open.site.callSite == nil
      ? "the test's virtual-time scope (@Test(.virtualTime))" : "the withVirtualTime scope opened at \(open.site)"
    reportIssue(
      """
      \(operation) is the synchronous form, called inside \(scope), \
      where it cannot wait for the scope's tasks. Write `await` before it. (In a withVirtualTime { scheduler in … } \
      closure with no other `await`, Swift infers the closure synchronous and picks this form without a word.)
      """,
      kind: .synchronousDrive,
      at: caller
    )
  }

  /// Whether the scope run by `executor` has started a task, other than the caller's, that has not
  /// ended; true where that cannot be told (a runtime whose task layout is not known).
  private static func hasTasks(_ executor: AnyObject?) -> Bool {
    guard #available(EffectsVirtualTime , *), let executor else { return true }
    guard let unfinished = unsafeDowncast(executor, to: VirtualExecutor.self).unfinishedTasks() else { return true }
    let current = ScopeTasks.currentTask
    return unfinished.contains { $0.address != current }
  }
}
