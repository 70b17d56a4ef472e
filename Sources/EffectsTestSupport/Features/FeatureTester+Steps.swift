import Effects

extension FeatureTester {
  /// Sends `action` to the reducer, checks the state change, starts the effects it asks for, and
  /// lets them run to their next suspension.
  ///
  /// ```swift
  /// await tester.send(.load) { $0 = .loading }
  /// tester.assertEffects([.fetchProfile(userID: "42")])
  /// ```
  ///
  /// `assert` changes the previous state into the one expected; leave it out when the action
  /// changes nothing. On a mismatch the issue shows the lines of the two states that differ. With
  /// ``exhaustivity`` ``Exhaustivity/off``, `assert` is applied to the actual state instead, and
  /// only what it sets is checked.
  ///
  /// Before the action, it reports what the test left behind: the effects of the previous step
  /// not asserted (at that step's line), and actions fed back and not received (here).
  public func send(
    _ action: Action,
    assert expectedChange: ((inout State) -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let name = "send(\(spelled(action)))"
    reportUnassertedEffects()
    reportUnreceived(by: name, at: site)
    let (before, step) = reduce(action, as: name, at: site, fedBy: nil)
    lastStep = step
    checkState(of: name, before: before, after: state, expectedChange, at: site)
    start(steps[step].effects, of: step)
    await scheduler.advance(by: .zero, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Takes the next action the effects fed back, checks that it is `expected`, and checks the
  /// state change it made.
  ///
  /// ```swift
  /// await tester.advance(by: .milliseconds(300))
  /// await tester.receive(.fetched(.blob)) { $0 = .loaded(.blob) }
  /// ```
  ///
  /// It first settles the scope — every effect runs to its next suspension — but never moves
  /// virtual time and never waits on real time: when nothing has arrived, it reports so at once,
  /// listing the work pending on the scheduler and how far to advance to reach it. When another
  /// action arrived first, it reports "received X, expected Y" and takes it. `assert` works as in
  /// ``send(_:assert:fileID:filePath:line:column:)``, from the state before the action arrived.
  ///
  /// With ``exhaustivity`` ``Exhaustivity/off`` it skips, silently, actions that arrived before
  /// the first one equal to `expected`.
  public func receive(
    _ expected: Action,
    assert expectedChange: ((inout State) -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    reportUnassertedEffects()
    await scheduler.advance(by: .zero, fileID: fileID, filePath: filePath, line: line, column: column)
    let found = exhaustivity == .on ? received.indices.first : received.firstIndex { $0.action == expected }
    guard let found else {
      reportNothingReceived(expected, at: site)
      return
    }
    for skipped in received[..<found] { steps[skipped.step].effectsChecked = true }
    let entry = received[found]
    received.removeFirst(found + 1)
    steps[entry.step].callSite = site
    lastStep = entry.step
    guard entry.action == expected else {
      steps[entry.step].effectsChecked = true
      let after =
        received.isEmpty
        ? ""
        : "\nReceived after it, not asserted yet:\(renderList(received) { spelled($0.action) })"
      reportIssue(
        """
        FeatureTester.receive(_:assert:) received \(spelled(entry.action)), expected \(spelled(expected)).\(after)
        Receive the actions in the order the effects fed them back.
        """,
        kind: .unexpectedAction,
        at: site
      )
      return
    }
    checkState(of: steps[entry.step].name, before: entry.before, after: entry.after, expectedChange, at: site)
  }

  /// Checks the effects the last step — the last `send` or `receive` — asked for: exactly these,
  /// in order. A difference is reported as a diff, one line per effect.
  ///
  /// ```swift
  /// await tester.send(.retry) { $0 = .loading }
  /// tester.assertEffects([.fetchProfile(userID: "42", after: .seconds(2))])
  /// ```
  ///
  /// A step's effects not asserted by the next step (or ``finish(fileID:filePath:line:column:)``) are reported at the step.
  /// It consumes nothing: calling it twice checks the same effects.
  public func assertEffects(
    _ expected: [E],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let index = lastStep else {
      reportIssue(
        """
        FeatureTester.assertEffects(_:) was called before any step, so there are no effects to assert. Call it \
        after await tester.send(_:assert:) or await tester.receive(_:assert:).
        """,
        kind: .misuse,
        at: site
      )
      return
    }
    steps[index].effectsChecked = true
    let actual = steps[index].effects
    guard let diff = ListDiff(expected: expected, actual: actual) else { return }
    reportIssue(
      """
      FeatureTester.assertEffects(_:) found other effects asked for by \(steps[index].name): \
      \(diff.render(expected: expected, actual: actual) { spelled($0) })
      """,
      kind: .assertionFailed,
      at: site
    )
  }

  /// Moves virtual time forward by `duration`, exactly as
  /// ``TestScheduler/advance(by:isolation:fileID:filePath:line:column:)`` does: the effects due
  /// run, and every task they wake runs to its next suspension.
  ///
  /// ```swift
  /// await tester.advance(by: .milliseconds(299))
  /// await tester.advance(by: .milliseconds(1))  // reports an action that arrived too early
  /// await tester.receive(.fetched(.blob)) { $0 = .loaded(.blob) }
  /// ```
  ///
  /// Before moving time it reports actions fed back and not received yet: each action is
  /// received in the stretch of time it arrived in, so one that arrives early fails the test.
  public func advance(
    by duration: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    reportUnreceived(by: "advance(by: \(duration.literal))", at: site)
    await scheduler.advance(by: duration, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  // MARK: Checks

  /// Reports, at the last step, the effects it asked for that the test did not assert.
  func reportUnassertedEffects() {
    guard let index = lastStep, !steps[index].effectsChecked else { return }
    steps[index].effectsChecked = true
    guard exhaustivity == .on, let site = site(of: index) else { return }
    let effects = steps[index].effects
    let one = effects.count == 1
    reportIssue(
      """
      FeatureTester.\(steps[index].name) asked for \(one ? "an effect" : "\(effects.count) effects") the \
      test did not assert:\(renderList(effects) { spelled($0) })
      Assert \(one ? "it" : "them") after this step with tester.assertEffects([…]).
      """,
      kind: .unassertedEffects,
      at: site
    )
  }

  /// Reports, at `site`, the actions fed back that no `receive` took, and forgets them.
  func reportUnreceived(by operation: String, at site: CallSite) {
    guard !received.isEmpty else { return }
    let leftovers = received
    received = []
    for entry in leftovers { steps[entry.step].effectsChecked = true }
    forgotten += leftovers.map { ($0.action, operation, site) }
    guard exhaustivity == .on else { return }
    let one = leftovers.count == 1
    let items = leftovers.map { entry in
      "\(spelled(entry.action)), fed back by \(steps[entry.step].fedBy.map { text(ofRun: $0) } ?? "?")"
    }
    reportIssue(
      """
      FeatureTester.\(operation) found \(one ? "an action" : "\(leftovers.count) actions") fed back that the \
      test did not receive:\(renderList(items))
      Assert \(one ? "it" : "each") with await tester.receive(_:assert:) before this line.
      """,
      kind: .unreceivedAction,
      at: site
    )
  }

  /// Checks a step's state change: exhaustively, `before` changed by `expectedChange` must be
  /// `after`; otherwise `expectedChange` must leave `after` as it is.
  func checkState(
    of step: String,
    before: State,
    after: State,
    _ expectedChange: ((inout State) -> Void)?,
    at site: CallSite
  ) {
    var expected: State
    switch exhaustivity {
    case .on:
      expected = before
      expectedChange?(&expected)
    case .off:
      guard let expectedChange else { return }
      expected = after
      expectedChange(&expected)
    }
    guard expected != after else { return }
    let what: String
    let fix: String
    switch (exhaustivity, expectedChange) {
    case (.on, nil):
      what = "changed the state, expected no change"
      fix = "Describe the change with assert: { $0 … }, or fix the reducer."
    case (.on, _):
      what = "changed the state other than expected"
      fix = "Make assert: describe the change the reducer makes, or fix the reducer."
    case (.off, _):
      what = "changed the state other than assert: says"
      fix = """
        With exhaustivity .off, assert: is applied to the actual state and must leave it as it is: fix what \
        it sets, or the reducer.
        """
    }
    let diff =
      lineDiff(actual: ValueShape(of: after).lines, expected: ValueShape(of: expected).lines)
      ?? "  + \(spelled(after))\n  - \(spelled(expected))"
    reportIssue(
      "FeatureTester.\(step) \(what) (+ actual, - expected):\n\(diff)\n\(fix)",
      kind: .stateMismatch,
      at: site
    )
  }

  /// Reports that `receive` found nothing to take, with what may still send it.
  func reportNothingReceived(_ expected: Action, at site: CallSite) {
    let now = scheduler.elapsed
    var message = "FeatureTester.receive(_:assert:) received nothing"
    if received.isEmpty, let early = forgotten.last(where: { $0.action == expected }) {
      reportIssue(
        """
        \(message) by \(now.literal), expected \(spelled(expected)): it arrived earlier, and \
        FeatureTester.\(early.operation) at \(early.site) reported it as not received. Receive it before that line.
        """,
        kind: .unexpectedAction,
        at: site
      )
      return
    }
    if received.isEmpty {
      message += " by \(now.literal), expected \(spelled(expected))."
    } else {
      message += " equal to \(spelled(expected)) by \(now.literal); it received:"
      message += renderList(received) { spelled($0.action) }
    }
    let running = runs.indices.filter { !runs[$0].hasEnded }
    let pending = scheduler.pending
    if let next = pending.first {
      message += "\nPending on the scheduler:\(renderList(pending, \.description))"
      message += "\nAdvance time first: await tester.advance(by: \((next.offset - now).literal)) runs the next of them."
    } else if !running.isEmpty {
      let one = running.count == 1
      message += """

        Nothing is pending on the scheduler, and \(one ? "an effect is" : "\(running.count) effects are") still \
        running, waiting for something else (a stream, a continuation):\(renderList(running) { text(ofRun: $0) })
        Resume what \(one ? "it waits" : "they wait") for before this line.
        """
    } else {
      message += """

        No effect is running and nothing is pending on the scheduler, so no action will arrive. Check that an \
        earlier step asks for the effect that sends it.
        """
    }
    reportIssue(message, kind: .unexpectedAction, at: site)
  }
}
