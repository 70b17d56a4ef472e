import Effects

extension TestScheduler {
  /// Moves virtual time forward by `duration` from synchronous code, running every action whose
  /// deadline is reached, in order, each at its own deadline; then leaves ``now`` at the end of the
  /// window.
  ///
  /// For a synchronous test of callbacks (`schedule(after:)`), where `await` cannot be written:
  ///
  /// ```swift
  /// func testTheToastHidesAfterOneSecond() {
  ///   let scheduler = TestScheduler()
  ///   scheduler.schedule(after: .seconds(1)) { ticks.append(scheduler.elapsed) }
  ///   scheduler.advanceSynchronously(by: .milliseconds(999))  // nothing yet
  ///   scheduler.advanceSynchronously(by: .milliseconds(1))    // runs it, at exactly 1 second
  /// }
  /// ```
  ///
  /// Async code calls ``advance(by:isolation:fileID:filePath:line:column:)``, which also waits for
  /// the tasks the scope runs. The two have different names so that the compiler chooses: a
  /// closure that forgets its `await` does not compile, instead of silently taking this form.
  ///
  /// With no duration, it runs the work due now (zero-delay work, and what that schedules for now)
  /// without moving time: `scheduler.advanceSynchronously()`.
  ///
  /// Work scheduled by those actions runs in the same call when it falls inside the window. A
  /// negative `duration` is reported as an issue here and nothing moves. Sleeping tasks whose
  /// deadline is reached are resumed, but this synchronous form cannot wait for them, so it
  /// reports an issue naming the line where each went to sleep: test async code with
  /// `await advance(by:)` inside `withVirtualTime`.
  ///
  /// Virtual time ends at `.seconds(Int64.max)` after ``start``. An advance past that end (a
  /// `.seconds(Int.max)` meant as "as far as it goes", or one huge advance too many) stops there,
  /// having run everything due before it, and never traps. Work due at or past the end — a
  /// `.seconds(Int.max)` timeout, a sleep that long, the next tick of a timer repeating that slowly —
  /// is due never, as under the live `DispatchScheduler`: no advance and no run runs it, and it
  /// stays in ``pending`` (`due never`) until it is cancelled, or the end of the virtual-time
  /// scope reports it like any leftover.
  public func advanceSynchronously(
    by duration: Duration = .zero,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let caller = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let operation = "TestScheduler.advanceSynchronously(by:)"
    drain(caller: caller, operation: operation) {
      target(advancingBy: duration, at: caller, operation: operation).map(Goal.time)
    }
  }

  /// Moves virtual time forward to `instant`, an offset from ``start`` (compare ``elapsed``), from
  /// synchronous code, running every action due on the way. Async code calls
  /// ``advance(to:isolation:fileID:filePath:line:column:)``.
  ///
  /// The target is a `Duration`, not a `Date`, so it is exact: `advanceSynchronously(to: .seconds(3))`
  /// reaches the instant three seconds after the start however time got there. Moving backwards is
  /// reported as an issue here and nothing moves; an instant past `.seconds(Int64.max)`, where
  /// virtual time ends, moves time to that end (see
  /// ``advanceSynchronously(by:fileID:filePath:line:column:)``).
  public func advanceSynchronously(
    to instant: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let caller = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let operation = "TestScheduler.advanceSynchronously(to:)"
    drain(caller: caller, operation: operation) {
      target(advancingTo: instant, at: caller, operation: operation).map(Goal.time)
    }
  }

  /// Runs work until none is pending, from synchronous code, moving time to each deadline in turn;
  /// ``now`` stays at the last one. Async code calls ``run(isolation:fileID:filePath:line:column:)``.
  ///
  /// Repeating work never ends: after ``maxRuns`` actions this stops and reports an issue at the
  /// line that scheduled the work still due. Use `advanceSynchronously(by:)` to run a repeating
  /// timer for a bounded time.
  public func runSynchronously(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let caller = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    drain(caller: caller, operation: "TestScheduler.runSynchronously()") { .untilNothingIsPending }
  }
}
