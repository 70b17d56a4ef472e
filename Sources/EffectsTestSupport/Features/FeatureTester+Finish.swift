import Effects

extension FeatureTester {
  /// Ends the test of the feature: settles the scope, then reports everything the test did not
  /// account for, each at the line that caused it, and cancels the effects still running.
  ///
  /// ```swift
  /// await tester.receive(.fetched(.blob)) { $0 = .loaded(.blob) }
  /// await tester.finish()
  /// ```
  ///
  /// It reports:
  /// - the effects of the last step not asserted, at that step;
  /// - actions fed back and not received, here;
  /// - effects still running, at the step that asked for them, with the work pending on the
  ///   scheduler — then cancels them, and lets them end;
  /// - work still pending on the scheduler after that, here, with the line that scheduled each
  ///   (see ``TestScheduler/assertNoPendingWork(fileID:filePath:line:column:)``), then drops it.
  ///
  /// With ``exhaustivity`` ``Exhaustivity/off`` it only cancels the effects still running.
  ///
  /// A tester released without `finish()` checks what it can without settling the scope — effects
  /// not asserted, actions not received, effects running — and reports it at the line that made
  /// the tester.
  public func finish(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    isFinished = true
    reportUnassertedEffects()
    await scheduler.advance(by: .zero, fileID: fileID, filePath: filePath, line: line, column: column)
    reportUnreceived(by: "finish()", at: site)
    let running = runs.indices.filter { !runs[$0].hasEnded }
    if exhaustivity == .on {
      reportStillRunning(running, finishedAt: site)
    }
    guard !running.isEmpty else {
      if exhaustivity == .on {
        scheduler.assertNoPendingWork(fileID: fileID, filePath: filePath, line: line, column: column)
      }
      return
    }
    runner.cancelAll()
    // The cancelled effects end (a sleep on the scheduler throws CancellationError at once).
    await scheduler.advance(by: .zero, fileID: fileID, filePath: filePath, line: line, column: column)
    if exhaustivity == .on {
      scheduler.assertNoPendingWork(fileID: fileID, filePath: filePath, line: line, column: column)
    }
  }

  /// Reports the effects still running, one issue for each step that asked for some, at its line.
  private func reportStillRunning(_ running: [Int], finishedAt finish: CallSite) {
    guard !running.isEmpty else { return }
    let now = scheduler.elapsed
    let pending = scheduler.pending
    let waiting: String
    if let next = pending.first {
      waiting = """
        Pending on the scheduler:\(renderList(pending, \.description))
        await tester.advance(by: \((next.offset - now).literal)) runs the next of them.
        """
    } else {
      waiting = "Nothing is pending on the scheduler: they wait for something else (a stream, a continuation)."
    }
    let steps = Dictionary(grouping: running) { runs[$0].step }
    for step in steps.keys.sorted() {
      let indices = steps[step] ?? []
      let one = indices.count == 1
      reportIssue(
        """
        FeatureTester.\(self.steps[step].name) asked for \(one ? "an effect" : "\(indices.count) effects") \
        still running when the test finished, at \(now.literal):\(renderList(indices) { spelled(runs[$0].effect) })
        \(waiting)
        Let \(one ? "it" : "them") end before finish(), or cancel \(one ? "it" : "them") with a later step. \
        \(one ? "It was" : "They were") cancelled.
        """,
        kind: .leftoverWork,
        at: site(of: step) ?? finish
      )
    }
  }
}
