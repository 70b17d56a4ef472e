import Effects

extension FeatureTester {
  /// Takes, without checking them, every action the effects fed back that no `receive` took: the
  /// state is what they made it, and the effects they asked for need no assertion. The rest of the
  /// test stays exhaustive.
  ///
  /// ```swift
  /// await tester.send(.start(ticks: 3))
  /// tester.assertEffects([.ticks(3, every: .seconds(1))])
  /// await tester.advance(by: .seconds(3))
  /// await tester.skipReceivedActions()  // three ticks, not checked one by one
  /// #expect(tester.state == 3)
  /// ```
  ///
  /// It first settles the scope, as `receive` does. With `strict` (the default), finding nothing
  /// to skip is reported: the call is stale.
  public func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    reportUnassertedEffects()
    await scheduler.advance(by: .zero, fileID: fileID, filePath: filePath, line: line, column: column)
    guard !received.isEmpty else {
      if strict { reportNothingToSkip("skipReceivedActions()", found: "no action fed back", at: site) }
      return
    }
    for entry in received { steps[entry.step].effectsChecked = true }
    received = []
  }

  /// Cancels, without reporting them, the effects still running — a timer, a stream the test has
  /// seen enough of — and lets them end. What they send from now on is dropped. The rest of the
  /// test stays exhaustive: actions they fed back before this call must still be received (or
  /// skipped with ``skipReceivedActions(strict:fileID:filePath:line:column:)``).
  ///
  /// ```swift
  /// await tester.advance(by: .seconds(1))
  /// await tester.receive(.tick) { $0 = 1 }
  /// await tester.skipInFlightEffects()  // the timer goes on: stop it here
  /// await tester.finish()
  /// ```
  ///
  /// With `strict` (the default), finding no effect running is reported: the call is stale.
  public func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    await scheduler.advance(by: .zero, fileID: fileID, filePath: filePath, line: line, column: column)
    guard runs.contains(where: { !$0.hasEnded }) else {
      if strict { reportNothingToSkip("skipInFlightEffects()", found: "no effect running", at: site) }
      return
    }
    runner.cancelAll()
    // The cancelled effects end (a sleep on the scheduler throws CancellationError at once).
    await scheduler.advance(by: .zero, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Reports a strict skip that found nothing: the call is stale.
  private func reportNothingToSkip(_ call: String, found nothing: String, at site: CallSite) {
    reportIssue(
      "FeatureTester.\(call) found \(nothing) to skip. Remove the call, or pass strict: false where there may be none.",
      kind: .misuse,
      at: site
    )
  }
}
