import Effects

extension Spy {
  /// Asserts that the spy was called exactly `count` times, and marks those calls verified.
  ///
  /// ```swift
  /// analytics.trackSpy.assertCalled(times: 2)
  /// ```
  public func assertCalled(
    times count: Int,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard count >= 0 else {
      reportIssue(
        "assertCalled(times: \(count)) on \(name): a number of calls cannot be negative; pass 0 or more.",
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
      "\(name) was called \(timesPhrase(calls.count)), expected \(timesPhrase(count))\(listing(calls))",
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Asserts that the spy was never called.
  ///
  /// ```swift
  /// analytics.trackSpy.assertNotCalled()  // removing an item logs nothing
  /// ```
  public func assertNotCalled(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let calls = verifyCalls()
    guard !calls.isEmpty else { return }
    reportIssue(
      "\(name) was called \(timesPhrase(calls.count)), expected no calls\(listing(calls))",
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
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
  /// Asserts that the spy was called exactly once, with `expected`.
  ///
  /// ```swift
  /// store.saveSpy.assertCalledOnce(with: "abc")
  /// ```
  public func assertCalledOnce(
    with expected: Input,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let calls = verifyCalls()
    let message: String
    switch calls.count {
    case 1 where calls[0] == expected:
      return
    case 1:
      message = "\(name) was called once with \(describe(calls[0])), expected \(describe(expected))."
    case 0:
      message = "\(name) was never called, expected one call with \(describe(expected))."
    default:
      message = """
        \(name) was called \(timesPhrase(calls.count)), expected once with \(describe(expected))\(listing(calls))
        """
    }
    reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that the spy's calls are exactly `expected`, in order — no more, no fewer — with a line
  /// diff when they differ.
  ///
  /// ```swift
  /// analytics.trackSpy.assertCalls([
  ///   Event(name: "menu_item_detail_visited", properties: ["item_name": "pizza"]),
  ///   Event(name: "menu_item_ordered", properties: ["item_name": "pizza"]),
  /// ])
  /// ```
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
      "\(name) calls differ: \(diff.render(expected: expected, actual: calls, describe: describe))",
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}
