public import Effects
public import Testing

extension Issue {
  /// The kind of this library's report this issue is; nil for an issue of anything else (an
  /// `#expect`, a thrown error, another library's report).
  ///
  /// For a test that proves a mistake is reported, without matching the report's words:
  ///
  /// ```swift
  /// @Test func aSpyCalledWithNoStubIsReported() async {
  ///   let fetch = Spy<Int, String>("fetch")
  ///   withKnownIssue {
  ///     _ = try? fetch(42)
  ///   } matching: { issue in
  ///     issue.reportKind == .unstubbedCall
  ///   }
  /// }
  /// ```
  public var reportKind: ReportKind? {
    // This library records its reports with `Issue.record`: an `#expect` whose comment happens to
    // end with a kind is still the test's own expectation.
    guard case .unconditional = kind else { return nil }
    return comments.last.flatMap { ReportKind(reportText: $0.rawValue) }
  }
}
