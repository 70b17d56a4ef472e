public import Effects

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ModelTester {
  /// Takes the next change of the model and checks it: the model before the change, changed by
  /// `expectedChange`, must be the model after it.
  ///
  /// ```swift
  /// model.refreshTapped()
  /// await tester.assert { $0.isLoading = true }
  /// await tester.advance(by: .seconds(1))
  /// await tester.assert {
  ///   $0.items = ["a", "b"]
  ///   $0.isLoading = false
  /// }
  /// ```
  ///
  /// It first records what the test's own code changed, then settles the scope (every task runs
  /// to its next suspension) without moving virtual time. Each main-actor job that changed the
  /// model is a change of its own, taken in order by one `assert` each. Leave `expectedChange`
  /// out for a step that changed nothing in the model (one that only had effects), or to check
  /// that nothing changed.
  ///
  /// In `expectedChange`, `$0` reads the model as it was before the change, and takes what the
  /// test sets: `$0.count += 1`, `$0.items.append("c")`, `$0.detail?.isSaving = true`. Reported
  /// here, with the instant and the task that made the change:
  /// - a property changed and not stated;
  /// - a property stated other than it changed;
  /// - a property stated that did not change;
  /// - a property that is not an observed stored property (a computed one, or one marked
  ///   `@ObservationIgnored`).
  ///
  /// With ``exhaustivity`` ``Exhaustivity/off``, it takes every change so far and checks only the
  /// properties `expectedChange` sets, against the model now.
  public func assert(
    _ expectedChange: ((inout ExpectedModel<Model>) -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    reportUnassertedEffects()
    recorder.record(by: .test)
    await scheduler.advance(by: .zero, fileID: fileID, filePath: filePath, line: line, column: column)
    switch exhaustivity {
    case .on:
      guard let step = recorder.takeNext() else {
        lastTaken = nil
        guard let expectedChange else { return }
        let now = recorder.state
        let statements = ModelStatements.collect(expectedChange, on: model, before: now, after: now)
        reportIssue(
          ModelTesterWording.noChange(statements, state: now, at: scheduler.elapsed),
          kind: .stateMismatch,
          at: site
        )
        return
      }
      lastTaken = ([step], site)
      effectsChecked = step.effects.isEmpty
      let statements = expectedChange.map {
        ModelStatements.collect($0, on: model, before: step.before, after: step.after, history: recorder.history)
      }
      if let mismatch = ModelTesterWording.mismatch(of: step, statements: statements) {
        reportIssue(mismatch, kind: .stateMismatch, at: site)
      }
    case .off:
      let steps = recorder.takeAll()
      lastTaken = steps.isEmpty ? nil : (steps, site)
      effectsChecked = true
      guard let expectedChange else { return }
      let now = recorder.state
      let statements = ModelStatements.collect(
        expectedChange,
        on: model,
        before: steps.first?.before ?? now,
        after: now,
        history: recorder.history
      )
      if let mismatch = ModelTesterWording.partialMismatch(statements, now: now) {
        reportIssue(mismatch, kind: .stateMismatch, at: site)
      }
    }
  }

  /// Checks the effects the change the last ``assert(_:fileID:filePath:line:column:)`` took had
  /// on the world through the environment: exactly these, in order.
  ///
  /// ```swift
  /// model.saveTapped()
  /// await tester.assert { $0.isSaving = true }
  /// tester.assertEffects([
  ///   .setDefault("draft", for: "lastSaved"),
  ///   .track(event: "saved", properties: [:]),
  /// ])
  /// ```
  ///
  /// The effects are read from the environment's in-memory doubles, in this order: lines printed
  /// (`.print`), events tracked (`.track`), defaults written and removed (`.setDefault`,
  /// `.removeDefault`, by key), files written and removed (`.writeFile`, `.removeFile`, by path),
  /// requests sent (`.send`). A change whose effects are not asserted is reported by the next call
  /// on the tester, at the `assert` that took it.
  public func assertEffects(
    _ expected: [Effect],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let lastTaken else {
      reportIssue(ModelTesterWording.effectsBeforeAnyStep, kind: .misuse, at: site)
      return
    }
    effectsChecked = true
    let actual = lastTaken.steps.flatMap(\.effects)
    guard let diff = ListDiff(expected: expected, actual: actual) else { return }
    reportIssue(
      ModelTesterWording.otherEffects(diff.render(expected: expected, actual: actual) { spelled($0) }),
      kind: .assertionFailed,
      at: site
    )
  }

  /// Moves virtual time forward by `duration`, as
  /// ``TestScheduler/advance(by:isolation:fileID:filePath:line:column:)`` does, after reporting the
  /// changes made so far that the test did not assert: each change is stated in the stretch of
  /// time it happened in.
  ///
  /// ```swift
  /// model.refreshTapped()
  /// await tester.assert { $0.isLoading = true }
  /// await tester.advance(by: .seconds(1))
  /// ```
  public func advance(
    by duration: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    reportUnassertedEffects()
    recorder.record(by: .test)
    reportUnasserted(by: "advance(by: \(duration.literal))", at: site)
    await scheduler.advance(by: duration, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Takes, without checking them, the changes made so far and their effects: a flurry of
  /// progress updates, say. The rest of the test stays exhaustive.
  ///
  /// ```swift
  /// model.downloadTapped()
  /// await tester.advance(by: .seconds(10))
  /// await tester.skipChanges()  // ten progress updates, not stated one by one
  /// #expect(model.progress == 1)
  /// ```
  ///
  /// It first settles the scope, as `assert` does. With `strict` (the default), finding no change
  /// to skip is reported: the call is stale.
  public func skipChanges(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    reportUnassertedEffects()
    recorder.record(by: .test)
    await scheduler.advance(by: .zero, fileID: fileID, filePath: filePath, line: line, column: column)
    let skipped = recorder.takeAll()
    lastTaken = nil
    if skipped.isEmpty, strict {
      reportIssue(ModelTesterWording.nothingToSkip, kind: .misuse, at: site)
    }
  }

  /// Ends the test of the model: settles the scope, then reports the changes and effects the test
  /// did not assert. A change made after it — by a task still running, say — is reported at the
  /// end of the scope, here.
  ///
  /// ```swift
  /// await tester.assert { $0.isLoading = false }
  /// await tester.finish()
  /// ```
  ///
  /// A test that ends without `finish()` has the changes it did not assert reported at the end of
  /// the scope, at the line that made the tester.
  public func finish(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    reportUnassertedEffects()
    recorder.record(by: .test)
    await scheduler.advance(by: .zero, fileID: fileID, filePath: filePath, line: line, column: column)
    reportUnasserted(by: "finish()", at: site)
    recorder.finish(at: site)
  }

  // MARK: Checks

  /// Reports, at the `assert` that took them, the effects of the last change taken that the test
  /// did not assert.
  func reportUnassertedEffects() {
    guard !effectsChecked, let lastTaken else { return }
    effectsChecked = true
    guard exhaustivity == .on else { return }
    reportIssue(
      ModelTesterWording.unassertedEffects(lastTaken.steps.flatMap(\.effects)),
      kind: .unassertedEffects,
      at: lastTaken.site
    )
  }

  /// Reports, at `site`, the changes recorded that no `assert` took, and takes them.
  func reportUnasserted(by operation: String, at site: CallSite) {
    let steps = recorder.takeAll()
    guard !steps.isEmpty, exhaustivity == .on else { return }
    lastTaken = nil
    reportIssue(ModelTesterWording.unasserted(steps, by: operation), kind: .stateMismatch, at: site)
  }
}
