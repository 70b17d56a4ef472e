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
    guard isUsable("assert(_:)", at: site) else { return }
    await settle(at: site)
    // Nothing is written to the model through $0, but a statement may reach an object the model
    // holds in a value (`$0.rows[0].title = …`), and write to it: said, not hidden.
    let untouched = ModelState(of: model)
    defer {
      let writes = ModelState(of: model).changes(since: untouched).map(\.path)
      if !writes.isEmpty {
        reportIssue(ModelTesterWording.closureWrote(writes), kind: .misuse, at: site)
      }
    }
    switch exhaustivity {
    case .on:
      check(expectedChange, at: site)
    case .off:
      let steps = recorder.takeAll()
      guard let expectedChange else { return }
      let now = recorder.state
      let statements = ModelStatements.collect(
        expectedChange,
        on: model,
        before: steps.first?.before ?? now,
        after: now,
        history: { [recorder] in recorder.history }
      )
      if let mismatch = ModelTesterWording.partialMismatch(statements, now: now) {
        reportIssue(mismatch, kind: .stateMismatch, at: site)
      }
    }
  }

  /// Checks the effects the model had on the world through the environment since the last
  /// `assertEffects` (or since the tester was made): exactly these, in order within each kind.
  ///
  /// ```swift
  /// model.saveTapped()
  /// await tester.assert { $0.isSaving = true }
  /// tester.assertEffects([
  ///   .setDefault(.string("draft"), for: "lastSaved"),
  ///   .track(event: "saved", properties: [:]),
  /// ])
  /// ```
  ///
  /// The effects are read from the environment's in-memory doubles when the tester settles the
  /// scope (each `assert`, `advance`, `skipChanges` and `finish`). It does not wait itself: call it
  /// after an `await tester.assert { … }` or `await tester.advance(by:)`, which let the model's
  /// tasks run. They are not steps: a request is sent off the main actor, between the model's jobs.
  /// Effects not asserted are reported by the next `advance` and by `finish`: each effect is
  /// asserted in the stretch of time it happened in.
  ///
  /// The doubles keep each kind apart, so the order is kept within a kind (two requests, in the
  /// order sent), not across kinds: list them in any order of kinds. Lines printed are `.print`,
  /// events tracked `.track`, defaults written and removed `.setDefault` and `.removeDefault` (by
  /// key), files written and removed `.writeFile` and `.removeFile` (by path), and requests sent
  /// `.send`. A default or a file written twice between two reads, or written back as it was, is
  /// read as what changed.
  public func assertEffects(
    _ expected: [Effect],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard isUsable("assertEffects(_:)", at: site) else { return }
    recorder.readTheWorld()
    let (actual, anyRead) = recorder.takeEffectsToAssert()
    // The doubles keep each kind apart: compare in the order of their kinds, and within a kind as
    // listed.
    let expected = ModelWorld.inReadingOrder(expected)
    guard let diff = ListDiff(expected: expected, actual: actual) else { return }
    reportIssue(
      ModelTesterWording.otherEffects(
        diff.render(expected: expected, actual: actual) { "\($0)" },
        noneRead: !anyRead
      ),
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
    guard isUsable("advance(by:)", at: site) else { return }
    recorder.record(by: .test)
    recorder.readTheWorld()
    reportUnasserted(by: "advance(by: \(duration.literal))", at: site)
    await scheduler.advance(by: duration, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Takes, without checking them, the changes made so far and the effects on the world: a flurry
  /// of progress updates, say. The rest of the test stays exhaustive.
  ///
  /// ```swift
  /// model.downloadTapped()
  /// await tester.advance(by: .seconds(10))
  /// await tester.skipChanges()  // ten progress updates, not stated one by one
  /// #expect(model.progress == 1)
  /// ```
  ///
  /// It first settles the scope, as `assert` does. With `strict` (the default), finding no change
  /// and no effect to skip is reported: the call is stale.
  public func skipChanges(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard isUsable("skipChanges()", at: site) else { return }
    await settle(at: site)
    let skipped = recorder.takeAll()
    let effects = recorder.takeEffects()
    if skipped.isEmpty, effects.isEmpty, strict {
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
    guard isUsable("finish()", at: site) else { return }
    finishedAt = site
    await settle(at: site)
    reportUnasserted(by: "finish()", at: site)
    recorder.finish(at: site)
  }

  // MARK: Checks

  /// Whether the tester can still be used: not after `finish()`, which ended the test of the
  /// model (reported at `site`).
  func isUsable(_ call: String, at site: CallSite) -> Bool {
    guard let finishedAt else { return true }
    reportIssue(ModelTesterWording.afterFinish(call, finishedAt: finishedAt), kind: .misuse, at: site)
    return false
  }

  /// Records what the test's own code changed, lets every task of the scope run to its next
  /// suspension (each job that changes the model is recorded as it ends), then reads the world.
  func settle(at site: CallSite) async {
    recorder.record(by: .test)
    await scheduler.advance(
      by: .zero,
      fileID: site.fileID,
      filePath: site.filePath,
      line: site.line,
      column: site.column
    )
    recorder.readTheWorld()
  }

  /// Reports, at `site`, the changes and the effects recorded that the test did not assert, and
  /// takes them.
  func reportUnasserted(by operation: String, at site: CallSite) {
    let steps = recorder.takeAll()
    let effects = recorder.takeEffects()
    guard exhaustivity == .on else { return }
    if !steps.isEmpty {
      reportIssue(ModelTesterWording.unasserted(steps, by: operation), kind: .stateMismatch, at: site)
    }
    if !effects.isEmpty {
      reportIssue(ModelTesterWording.unassertedEffects(effects, by: operation), kind: .unassertedEffects, at: site)
    }
  }

  /// Takes the next step and checks it against `expectedChange`. When it differs, and the
  /// statements are those of a later step, or of the next steps taken together, it says so, and
  /// takes them all: one report, not one for every step the test is now behind.
  func check(_ expectedChange: ((inout ExpectedModel<Model>) -> Void)?, at site: CallSite) {
    let steps = recorder.untaken
    guard let first = steps.first else {
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
    func mismatch(of step: ModelRecorder.Step) -> String? {
      let statements = expectedChange.map {
        ModelStatements.collect(
          $0,
          on: model,
          before: step.before,
          after: step.after,
          history: { [recorder] in recorder.history }
        )
      }
      return ModelTesterWording.mismatch(of: step, statements: statements)
    }
    guard let report = mismatch(of: first) else {
      recorder.take(1)
      return
    }
    let ahead = steps.prefix(Self.lookahead)
    if expectedChange != nil {
      if let later = ahead.indices.dropFirst().first(where: { mismatch(of: ahead[$0]) == nil }) {
        recorder.take(later + 1)
        reportIssue(ModelTesterWording.skippedBefore(Array(ahead[..<later])), kind: .stateMismatch, at: site)
        return
      }
      for last in ahead.indices.dropFirst() {
        let together = ModelRecorder.Step(
          before: first.before,
          after: ahead[last].after,
          changes: ahead[last].after.changes(since: first.before),
          instant: ahead[last].instant,
          maker: ahead[last].maker
        )
        if mismatch(of: together) == nil {
          recorder.take(last + 1)
          reportIssue(ModelTesterWording.madeInSteps(Array(ahead[...last])), kind: .stateMismatch, at: site)
          return
        }
      }
    }
    recorder.take(1)
    reportIssue(report, kind: .stateMismatch, at: site)
  }

  /// How many steps ahead a mismatched `assert` looks for the one it states: 20.
  static var lookahead: Int { 20 }
}
