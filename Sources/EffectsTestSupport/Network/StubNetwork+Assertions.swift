public import Effects

extension StubNetwork {
  /// Asserts that the requests sent since the network was made (or last ``clear()``ed) are exactly
  /// `expected`, in order — headers and bodies included.
  ///
  /// ```swift
  /// try await model.signOut()
  /// network.assertRequests([.post("https://api.example.com/logout", headers: ["Authorization": "Bearer abc"])])
  /// ```
  ///
  /// The requests stay recorded: a later assertion checks them again, with the ones sent since.
  /// On a mismatch the message is a diff with one line per request, at the line that called this
  /// method:
  ///
  /// ```text
  /// StubNetwork requests differ: got 2, expected 1; first difference at index 1:
  ///     [0] GET https://api.example.com/me
  ///   + [1] GET https://api.example.com/me   (unexpected)
  /// ```
  ///
  /// A body over 1 KiB is shown by its first KiB and its size.
  public func assertRequests(
    _ expected: [NetworkRequest],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard let message = Self.wording.listFailure(expected: expected, recorded: requests, describe: preview) else {
      return
    }
    reportIssue(message, kind: .assertionFailed, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that exactly `count` requests were sent since the network was made (or last cleared).
  ///
  /// ```swift
  /// network.assertRequests(count: 3)  // two retries after the first failure
  /// ```
  public func assertRequests(
    count: Int,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard let message = Self.wording.countFailure(count, recorded: { requests.map(preview) }) else { return }
    reportIssue(message, kind: .assertionFailed, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that no request was sent since the network was made (or last cleared).
  ///
  /// ```swift
  /// model.signOut()  // signed out already: nothing to tell the server
  /// network.assertNoRequests()
  /// ```
  public func assertNoRequests(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard let message = Self.wording.noneFailure(requests.map(preview)) else { return }
    reportIssue(message, kind: .assertionFailed, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  private static var wording: RecorderWording {
    RecorderWording(
      subject: "StubNetwork",
      did: "got",
      haveDone: "got",
      amount: { counted($0, "request") },
      countAssertion: "assertRequests(count:)",
      noun: ("request", "network")
    )
  }
}
