import Effects

extension TestObserver {
  /// Asserts that exactly `count` values were received since the observer was made (or last
  /// cleared).
  ///
  /// ```swift
  /// observer.assertValues(count: 3)
  /// ```
  public func assertValues(
    count: Int,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard let message = wording.countFailure(count, recorded: { values.map(describe) }) else { return }
    reportIssue(message, kind: .assertionFailed, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that no value was received since the observer was made (or last cleared).
  ///
  /// ```swift
  /// observer.assertNoValues()
  /// ```
  public func assertNoValues(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard let message = wording.noneFailure(values.map(describe)) else { return }
    reportIssue(message, kind: .assertionFailed, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that the stream completed (and did not fail).
  public func assertDidComplete(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let (didComplete, failure) = state.withLock { ($0.didComplete, $0.failure) }
    if didComplete, failure == nil { return }
    let message =
      if let failure {
        "\(observerName) did not complete: it failed with \(describe(failure))\(didComplete ? " (and completed)" : "")."
      } else {
        "\(observerName) did not complete; it received \(valuesPhrase(values.count)) and is still open."
      }
    reportIssue(message, kind: .assertionFailed, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that the stream has not completed.
  public func assertDidNotComplete(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard didComplete else { return }
    reportIssue(
      "\(observerName) completed, expected it not to, after \(valuesPhrase(values.count)).",
      kind: .assertionFailed,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Asserts that the stream failed, with any error.
  ///
  /// ```swift
  /// observer.assertDidFail()
  /// #expect(observer.failure as? APIError == .unauthorized)
  /// ```
  public func assertDidFail(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard failure == nil else { return }
    reportIssue(
      "\(observerName) did not fail\(outcome).",
      kind: .assertionFailed,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Asserts that the stream has not failed.
  public func assertDidNotFail(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard let failure else { return }
    reportIssue(
      "\(observerName) failed with \(describe(failure)), expected it not to fail.",
      kind: .assertionFailed,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  var observerName: String {
    "TestObserver<\(Value.self), \(Failure.self)>"
  }

  /// `(it completed)`, `(it failed with …)` or `(it is still open)`, after `values`.
  var outcome: String {
    let (count, didComplete, failure) = state.withLock { ($0.values.count, $0.didComplete, $0.failure) }
    let end =
      if let failure { "it failed with \(describe(failure))" } else if didComplete { "it completed" } else {
        "it is still open"
      }
    return " (\(count == 0 ? "" : "after \(valuesPhrase(count)); ")\(end))"
  }

  var wording: RecorderWording {
    RecorderWording(
      subject: observerName,
      did: "received",
      haveDone: "received",
      amount: valuesPhrase,
      countAssertion: "assertValues(count:)",
      noun: ("value", "observer")
    )
  }
}

extension TestObserver where Value: Equatable {
  /// Asserts that the values received since the observer was made (or last cleared) are exactly
  /// `expected`, in order, with a line diff when they differ.
  ///
  /// ```swift
  /// observer.assertValues([.loading, .loaded(profile)])
  /// ```
  ///
  /// The values stay recorded: a later assertion checks them again, with the values received
  /// since. To check one step at a time, ``clear()`` the observer after an assertion.
  public func assertValues(
    _ expected: [Value],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard let message = wording.listFailure(expected: expected, recorded: values, describe: describe) else { return }
    reportIssue(message, kind: .assertionFailed, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that the latest value received is `expected`.
  ///
  /// ```swift
  /// observer.assertLastValue(.loaded(profile))
  /// ```
  public func assertLastValue(
    _ expected: Value,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let message: String
    switch lastValue {
    case expected?:
      return
    case let last?:
      message = "\(observerName)'s last value is \(describe(last)), expected \(describe(expected))."
    case nil:
      message = "\(observerName) received no values, expected the last one to be \(describe(expected))."
    }
    reportIssue(message, kind: .assertionFailed, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// `1 value`, `2 values`.
private func valuesPhrase(_ count: Int) -> String {
  counted(count, "value")
}

extension TestObserver where Value: Equatable {
  /// Asserts that the observer's timeline is exactly `expected`: the same values, in order, each
  /// received at the same virtual instant, and the same end — with a line diff, instants and all,
  /// when they differ.
  ///
  /// ```swift
  /// results.assertTimeline([
  ///   .value([], at: .zero),
  ///   .value(["pizza"], at: .milliseconds(300)),
  ///   .finished(at: .seconds(1)),
  /// ])
  /// ```
  ///
  /// An expected timeline without an end (`finished` or `failed` last) checks the events so far,
  /// and that the sequence has not ended yet. Failures match when they are equal (an `Equatable`
  /// error) or, otherwise, described alike. Like ``assertValues(_:fileID:filePath:line:column:)``,
  /// it checks everything since the observer was made or last cleared.
  ///
  /// The instants are virtual: the observer must have been made, or fed, inside a virtual-time
  /// scope. Events it received outside any have none, and the assertion reports that instead.
  public func assertTimeline(
    _ expected: Timeline<Value, Failure>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    checkTimeline(expected, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the observer's timeline is exactly `expected`, a timeline whose failure type is
  /// not the observer's: the timeline a test played (`Timeline<String, Never>`), checked against an
  /// observer of a sequence that may throw (`TestObserver<String, any Error>`). See
  /// ``assertTimeline(_:fileID:filePath:line:column:)-(Timeline<Value,Failure>,_,_,_,_)``.
  @_disfavoredOverload
  public func assertTimeline<ExpectedFailure: Error>(
    _ expected: Timeline<Value, ExpectedFailure>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    checkTimeline(expected, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  private func checkTimeline<ExpectedFailure: Error>(
    _ expected: Timeline<Value, ExpectedFailure>,
    at callSite: CallSite
  ) {
    let recorded = state.withLock { $0.recorded }
    let untimed = recorded.filter { $0.instant == nil }.count
    if untimed > 0 {
      reportIssue(
        """
        \(observerName) cannot check a timeline: it received \(counted(untimed, "event")) outside any virtual-time \
        scope, which have no virtual instant. Make the observer inside the scope — in a test marked \
        @Test(.virtualTime), or inside withVirtualTime { … } — so each event is timed on the scope's scheduler; \
        or check the values alone, with assertValues(_:).
        """,
        kind: .misuse,
        at: callSite
      )
      return
    }
    let timelineWording = RecorderWording(
      subject: observerName,
      did: "received",
      haveDone: "received",
      amount: eventsPhrase,
      countAssertion: "assertTimeline(_:)",
      noun: ("event", "observer")
    )
    guard
      var message = timelineWording.listFailure(
        expected: expected.events.map { ComparedEvent($0) },
        recorded: recorded.map { ComparedEvent<Value>($0.timelineEvent) }
      )
    else { return }
    if expected.end == nil {
      message += """

        The expected timeline has no end: it checks the events so far, and that the sequence has not ended yet.
        """
    }
    reportIssue(message, kind: .assertionFailed, at: callSite)
  }
}

/// `1 event`, `2 events`.
private func eventsPhrase(_ count: Int) -> String {
  counted(count, "event")
}

/// A timeline event as the list assertion compares and lists it, whatever its failure type.
private struct ComparedEvent<Value: Equatable>: Equatable, CustomStringConvertible {
  enum Kind {
    case value(Value)
    case finished
    case failed(any Error)
  }

  let kind: Kind
  let instant: Duration
  let description: String

  init<Failure>(_ event: Timeline<Value, Failure>.Event) {
    switch event {
    case .value(let value, let instant): (kind, self.instant) = (.value(value), instant)
    case .finished(let instant): (kind, self.instant) = (.finished, instant)
    case .failed(let failure, let instant): (kind, self.instant) = (.failed(failure), instant)
    }
    description = event.description
  }

  static func == (one: Self, other: Self) -> Bool {
    guard one.instant == other.instant else { return false }
    switch (one.kind, other.kind) {
    case (.value(let first), .value(let second)): return first == second
    case (.finished, .finished): return true
    case (.failed(let first), .failed(let second)): return sameFailure(first, second)
    default: return false
    }
  }
}
