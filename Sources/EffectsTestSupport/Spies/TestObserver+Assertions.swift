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
    reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
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
    reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
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
    reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
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
    reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
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
    reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// `1 value`, `2 values`.
private func valuesPhrase(_ count: Int) -> String {
  counted(count, "value")
}
