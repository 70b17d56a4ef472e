import Effects
import Testing
import XCTest

/// Where a failure is placed: a source location as Swift Testing takes it, and — when the place is
/// a call site — the `StaticString` path XCTest needs.
struct FailureLocation: Sendable, CustomStringConvertible {
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

  /// `Module/File.swift:42`.
  var description: String {
    "\(fileID):\(line)"
  }
}

/// Records a failure with `message` at `location`: where ``TestHost/destination(of:)`` sends a
/// failure, for the current host. Every assertion, misuse and unanswerable co-effect this library
/// reports goes through here, or through ``record(_:at:in:)`` after the same routing.
func recordFailure(_ message: String, at location: FailureLocation) {
  record(message, at: location, in: TestHost.current.destination(of: .failure))
}

/// Says `message` in `destination`, placed at `location`: the one place where a report leaves
/// this library.
///
/// - A Swift Testing issue is placed at `location`, wherever it is; with none, at this line.
/// - An XCTest failure is placed at `location`'s call site; XCTest takes no other place, so any
///   other is named at the start of the text.
/// - A line on standard error names `location` at its start, unless the message already names it.
///
/// Inside ``withCapturedIssues(_:)`` an issue or a failure is kept for the test that asked instead,
/// and inside ``withTestHost(_:_:)`` every report is.
func record(_ message: String, at location: FailureLocation?, in destination: TestHost.Destination) {
  let override = TestHostOverride.current
  switch destination {
  case .nowhere:
    return
  case .standardError:
    warn(placed(message, at: location))
  case .swiftTestingIssue:
    if let override {
      return override.keep(RoutedReport(destination, message, fileID: location?.fileID, line: location?.line))
    }
    if let location, IssueCapture.keep(message, at: location) { return }
    guard let location else {
      Issue.record(Comment(rawValue: message))
      return
    }
    Issue.record(
      Comment(rawValue: message),
      sourceLocation: SourceLocation(
        fileID: location.fileID,
        filePath: location.filePath,
        line: location.line,
        column: location.column
      )
    )
  case .xcTestFailure:
    let callSite = location?.callSite
    let text = callSite == nil ? placed(message, at: location) : message
    if let override {
      return override.keep(
        RoutedReport(destination, text, fileID: callSite?.fileID.description, line: callSite.map { Int($0.line) })
      )
    }
    if let location, IssueCapture.keep(message, at: location) { return }
    if let callSite {
      XCTFail(text, file: callSite.filePath, line: callSite.line)
    } else {
      XCTFail(text)
    }
  }
}

/// `message`, preceded by `location` as a compiler names a place, unless the message already names
/// it: `AppTests/LoginTests.swift:42: Spy "fetch" was called 1 time, expected 2 times.`
private func placed(_ message: String, at location: FailureLocation?) -> String {
  guard let location, !message.contains(location.description) else { return message }
  return "\(location): \(message)"
}
