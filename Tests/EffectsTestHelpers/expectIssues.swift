package import EffectsTestSupport
package import Testing

/// Runs `body`, capturing what the library reports, and expects at least one report and every
/// report to satisfy `matching` — what `withKnownIssue { … } matching: { … }` checks, without
/// printing the issues as known ones. Prefer an exact `#expect(issues == [...])` on
/// `withCapturedIssues` where the text is fully known.
package func expectIssues(
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> Void,
  matching: (CapturedIssue) -> Bool
) rethrows {
  let issues = try withCapturedIssues(body).issues
  check(issues, matching: matching, sourceLocation: sourceLocation)
}

/// Runs the asynchronous `body`, capturing what the library reports, and expects at least one
/// report and every report to satisfy `matching`. See ``expectIssues(sourceLocation:_:matching:)``.
package func expectIssues(
  isolation: isolated (any Actor)? = #isolation,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () async throws -> Void,
  matching: (CapturedIssue) -> Bool
) async rethrows {
  let issues = try await withCapturedIssues(isolation: isolation, body).issues
  check(issues, matching: matching, sourceLocation: sourceLocation)
}

private func check(
  _ issues: [CapturedIssue],
  matching: (CapturedIssue) -> Bool,
  sourceLocation: SourceLocation
) {
  #expect(!issues.isEmpty, "expected the library to report an issue", sourceLocation: sourceLocation)
  for issue in issues where !matching(issue) {
    Issue.record("unexpected report: \(issue)", sourceLocation: sourceLocation)
  }
}

extension CapturedIssue {
  /// Whether the issue says exactly `message` and points at `line` of the calling file.
  package func matches(_ message: String, line: Int, fileID: String = #fileID) -> Bool {
    self == CapturedIssue(message, fileID: fileID, line: line)
  }
}
