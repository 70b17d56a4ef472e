package import Effects

/// Records a test failure with `message` at `callSite`, in whichever framework is running (see
/// ``recordFailure(_:at:)``). Every assertion helper of this module reports through here, at its
/// caller's source location.
package func reportIssue(_ message: String, at callSite: CallSite) {
  recordFailure(message, at: FailureLocation(callSite))
}

/// Records a test failure with `message` at the given source location.
package func reportIssue(
  _ message: String,
  fileID: StaticString,
  filePath: StaticString,
  line: UInt,
  column: UInt
) {
  reportIssue(message, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}
