import Effects
import Testing
import XCTest

/// Where a failure is placed: a source location as Swift Testing takes it, and — when the place is
/// a call site — the `StaticString` path XCTest needs.
struct FailureLocation: Sendable {
  var fileID: String
  var filePath: String
  var line: Int
  var column: Int
  /// The call site, when the place is one; nil for a place only Swift Testing can name (a test's
  /// declaration, a read site found on the stack).
  var callSite: CallSite?

  /// The line that called an API.
  init(_ callSite: CallSite) {
    fileID = callSite.fileID.description
    filePath = callSite.filePath.description
    line = Int(callSite.line)
    column = Int(callSite.column)
    self.callSite = callSite
  }

  /// A place Swift Testing names: a test's declaration, or a read site.
  init(fileID: String, filePath: String, line: Int, column: Int) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
    callSite = nil
  }

  /// A test's declaration.
  init(_ location: SourceLocation) {
    self.init(fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column)
  }
}

/// Records a test failure with `message` at `location`: the one place every failure this library
/// reports goes through.
///
/// Inside ``withCapturedIssues(_:)`` the failure is kept for the test that asked instead.
/// Otherwise, inside a Swift Testing test (`Test.current` is set), or at a place only Swift Testing
/// can name, it records an `Issue`; elsewhere it calls `XCTFail`. Without both branches a failure
/// raised in one framework would be lost silently in the other.
func recordFailure(_ message: String, at location: FailureLocation) {
  if IssueCapture.keep(message, at: location) { return }
  if Test.current == nil, let callSite = location.callSite {
    XCTFail(message, file: callSite.filePath, line: callSite.line)
  } else {
    Issue.record(
      Comment(rawValue: message),
      sourceLocation: SourceLocation(
        fileID: location.fileID,
        filePath: location.filePath,
        line: location.line,
        column: location.column
      )
    )
  }
}
