package import Effects

/// Records a test failure of `kind` with `message` at `callSite`, in whichever framework is
/// running (see ``recordFailure(_:kind:at:)``). Every assertion helper of this module reports
/// through here, at its caller's source location.
package func reportIssue(_ message: String, kind: ReportKind, at callSite: CallSite) {
  recordFailure(message, kind: kind, at: FailureLocation(callSite))
}

/// Records a test failure of `kind` with `message` at the given source location.
package func reportIssue(
  _ message: String,
  kind: ReportKind,
  fileID: StaticString,
  filePath: StaticString,
  line: UInt,
  column: UInt
) {
  reportIssue(message, kind: kind, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}
