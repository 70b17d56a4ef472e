package import Effects
import Testing
import XCTest

/// Records a test failure with `message` at `callSite`, in whichever framework is running.
///
/// Inside a Swift Testing test (`Test.current` is set) it records an `Issue`; otherwise it calls
/// `XCTFail`. Without both branches a failure raised in one framework would be lost silently in
/// the other. Every assertion helper of this module reports through here, at its caller's source
/// location.
package func reportIssue(_ message: String, at callSite: CallSite) {
  if Test.current != nil {
    Issue.record(
      Comment(rawValue: message),
      sourceLocation: SourceLocation(
        fileID: callSite.fileID.description,
        filePath: callSite.filePath.description,
        line: Int(callSite.line),
        column: Int(callSite.column)
      )
    )
  } else {
    XCTFail(message, file: callSite.filePath, line: callSite.line)
  }
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
