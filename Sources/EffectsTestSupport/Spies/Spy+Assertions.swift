import Effects

// The assertions read like every recorder's (see the "Asserting what was recorded" table in the
// Spies and fixtures article): `assertCalls(_:)`, `assertCalls(count:)`, `assertNoCalls()`. Each
// checks every call since the spy was made or last cleared, and does not consume them.

extension Spy {
  /// Asserts that the spy was called exactly `count` times since it was made (or last cleared),
  /// and marks those calls verified.
  ///
  /// ```swift
  /// analytics.trackSpy.assertCalls(count: 2)
  /// ```
  public func assertCalls(
    count: Int,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard count >= 0 else {
      reportIssue(
        "\(subject) cannot have been called \(timesPhrase(count)). Pass assertCalls(count:) a count of 0 or more.",
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
      )
      return
    }
    let calls = verifyCalls()
    guard calls.count != count else { return }
    reportIssue(
      "\(subject) was called \(timesPhrase(calls.count)), expected \(timesPhrase(count))\(listing(calls))",
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Asserts that the spy was not called at all since it was made (or last cleared).
  ///
  /// ```swift
  /// analytics.trackSpy.assertNoCalls()  // removing an item logs nothing
  /// ```
  public func assertNoCalls(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let calls = verifyCalls()
    guard !calls.isEmpty else { return }
    reportIssue(
      "\(subject) was called \(timesPhrase(calls.count)), expected no calls\(listing(calls))",
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// How messages name the spy, as the test creates it: `Spy "tokenStore.save"`.
  var subject: String {
    "Spy \(name.debugDescription)"
  }

  /// Every call, marked verified in the log: an assertion checks them all.
  func verifyCalls() -> [Input] {
    let (calls, logIndices) = state.withLock { ($0.calls.elements, $0.logIndices) }
    log?.markVerified(logIndices)
    return calls
  }

  /// `:` and the calls one per line, or nothing when there are none.
  func listing(_ calls: [Input]) -> String {
    calls.isEmpty ? "." : ":" + describeList(calls)
  }
}

extension Spy where Input: Equatable {
  /// Asserts that the spy's calls since it was made (or last cleared) are exactly `expected`, in
  /// order — no more, no fewer — with a line diff when they differ; marks them verified.
  ///
  /// ```swift
  /// analytics.trackSpy.assertCalls([
  ///   Event(name: "menu_item_detail_visited", properties: ["item_name": "pizza"]),
  ///   Event(name: "menu_item_ordered", properties: ["item_name": "pizza"]),
  /// ])
  /// ```
  ///
  /// The calls stay recorded: a later assertion checks them again, with the calls made since. To
  /// check one step at a time, ``clear()`` the spy after an assertion.
  public func assertCalls(
    _ expected: [Input],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let calls = verifyCalls()
    guard let diff = ListDiff(expected: expected, actual: calls) else { return }
    reportIssue(
      "\(subject) calls differ: \(diff.render(expected: expected, actual: calls, describe: describe))",
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}
