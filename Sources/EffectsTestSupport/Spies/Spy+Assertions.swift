import Effects

// The assertions speak like every recorder's (the "One vocabulary for every recorder" table of
// the Spies and fixtures article): `assertCalls(_:)`, `assertCalls(count:)`, `assertNoCalls()`.
// Each checks every call since the spy was made or last cleared, and consumes none.

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
    guard let message = wording.countFailure(count, recorded: { verifyCalls().map(describe) }) else { return }
    reportIssue(message, kind: .assertionFailed, fileID: fileID, filePath: filePath, line: line, column: column)
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
    guard let message = wording.noneFailure(verifyCalls().map(describe)) else { return }
    reportIssue(message, kind: .assertionFailed, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// How messages name the spy, as the test creates it: `Spy "tokenStore.save"`.
  var subject: String {
    "Spy \(name.debugDescription)"
  }

  var wording: RecorderWording {
    RecorderWording(
      subject: subject,
      did: "was called",
      haveDone: "been called",
      amount: { counted($0, "time") },
      countAssertion: "assertCalls(count:)",
      noun: ("call", "spy")
    )
  }

  /// Every call, marked verified in the log: an assertion checks them all.
  func verifyCalls() -> [Input] {
    let (calls, logIndices) = state.withLock { ($0.calls.elements, $0.logIndices) }
    log?.markVerified(logIndices)
    return calls
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
    guard let message = wording.listFailure(expected: expected, recorded: verifyCalls(), describe: describe) else {
      return
    }
    reportIssue(message, kind: .assertionFailed, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
