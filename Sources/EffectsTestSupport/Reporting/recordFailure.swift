import Effects
import Testing
import XCTest

/// Where a failure is placed — the one place type of every report: the line that called an API,
/// a test's declaration, or a read site found on the stack. Swift Testing and XCTest both take it
/// as it is (XCTest through the running case, by `String` path).
struct FailureLocation: Sendable, CustomStringConvertible {
  /// A call site is kept as it was captured, and spelled out only when a report is made: a scope
  /// keeps one for each `await advance`, and making its `String`s there would cost allocations on
  /// every step (the benchmark `callback-steps`).
  private enum Place: Sendable {
    case call(CallSite)
    case source(fileID: String, filePath: String, line: Int, column: Int)
  }

  private let place: Place

  /// The line that called an API.
  init(_ callSite: CallSite) {
    place = .call(callSite)
  }

  /// A place Swift Testing names: a test's declaration, or a read site.
  init(fileID: String, filePath: String, line: Int, column: Int) {
    place = .source(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// A test's declaration.
  init(_ location: SourceLocation) {
    self.init(fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column)
  }

  /// `Module/File.swift`.
  var fileID: String {
    switch place {
    case .call(let callSite): callSite.fileID.description
    case .source(let fileID, _, _, _): fileID
    }
  }

  /// The file's full path.
  var filePath: String {
    switch place {
    case .call(let callSite): callSite.filePath.description
    case .source(_, let filePath, _, _): filePath
    }
  }

  var line: Int {
    switch place {
    case .call(let callSite): Int(callSite.line)
    case .source(_, _, let line, _): line
    }
  }

  var column: Int {
    switch place {
    case .call(let callSite): Int(callSite.column)
    case .source(_, _, _, let column): column
    }
  }

  /// The API call this place is, when it is one: a scope's `withVirtualTime`, an environment's
  /// `test()`. Nil for a test's declaration and a read site.
  var callSite: CallSite? {
    guard case .call(let callSite) = place else { return nil }
    return callSite
  }

  /// Whether this place comes before `other`: by file, then line, then column.
  func precedes(_ other: FailureLocation) -> Bool {
    (filePath, line, column) < (other.filePath, other.line, other.column)
  }

  /// `Module/File.swift:42`.
  var description: String {
    "\(fileID):\(line)"
  }

  /// Records a failure of `kind` with `message` here.
  func report(_ message: String, kind: ReportKind) {
    recordFailure(message, kind: kind, at: self)
  }
}

/// Records a failure with `message` at `location`: where ``TestHost/destination(of:)`` sends a
/// failure, for the current host. Every assertion, misuse and unanswerable co-effect this library
/// reports goes through here, or through ``record(_:at:in:)`` after the same routing.
func recordFailure(_ message: String, kind: ReportKind, at location: FailureLocation) {
  record(message, kind: kind, at: location, in: TestHost.current.destination(of: .failure))
}

/// Says `message` in `destination`, placed at `location`: the one place where a report leaves
/// this library, within ``ReportBudget``, ending with its `kind` (`[ReportKind.leftoverWork]`,
/// which `Issue.reportKind` and `ReportKind(reportText:)` read back).
///
/// - A Swift Testing issue is placed at `location`, wherever it is; with none, at the running
///   test's declaration (in an exit test's child process, which has no test, at this line).
/// - An XCTest failure is recorded on the running case at `location`, wherever it is (see
///   ``recordXCTestFailure(_:at:)``).
/// - A line on standard error names `location` at its start, unless the message already names it.
///
/// Inside ``withCapturedIssues(_:)`` an issue or a failure is kept for the test that asked instead
/// (its text without the kind, which is kept beside it), and inside ``withTestHost(_:_:)`` every
/// report is, as it would have been recorded.
func record(_ message: String, kind: ReportKind, at location: FailureLocation?, in destination: TestHost.Destination) {
  if destination != .nowhere { Exploration.noteFailure() }
  var location = location
  var message = message
  // Never in a file of the library: a user cannot act on a line there. Placed at the test
  // instead, saying so (the library's own suites fail on it: see `IssueCapture.close()`).
  if let placed = location, ReadSite.isLibrarySource(placed.filePath) {
    location = destination == .swiftTestingIssue ? Test.current.map { FailureLocation($0.sourceLocation) } : nil
    message += misplacedNote
  }
  // A report with no place of its own goes to the running test's declaration, not to this file's
  // line (Swift Testing's default). Only an exit test's child process has no test to name.
  if location == nil, destination == .swiftTestingIssue {
    location = Test.current.map { FailureLocation($0.sourceLocation) }
  }
  let override = TestHostOverride.current
  // XCTest records a failure on the case running now: one raised by work that an earlier case's
  // scope left running says whose it is.
  let late =
    (destination == .xcTestFailure || destination == .standardError) && !message.contains("(Raised by work that")
  if late { message += XCTestCaseOrigin.lateNote(for: .ofCurrentWork) }
  // Within the budget with its kind: a report cut keeps its end, so the kind stays.
  let tagged = ReportBudget.bounded(kind.tagged(message))
  message = ReportBudget.bounded(message)
  switch destination {
  case .nowhere:
    return
  case .standardError:
    warn(placed(tagged, at: location))
  case .swiftTestingIssue:
    if let override {
      return override.keep(RoutedReport(destination, tagged, fileID: location?.fileID, line: location?.line))
    }
    if let location, IssueCapture.keep(message, kind: kind, at: location) { return }
    guard let location else {
      Issue.record(Comment(rawValue: tagged))
      return
    }
    Issue.record(
      Comment(rawValue: tagged),
      sourceLocation: SourceLocation(
        fileID: location.fileID,
        filePath: location.filePath,
        line: location.line,
        column: location.column
      )
    )
  case .xcTestFailure:
    if let override {
      return override.keep(RoutedReport(destination, tagged, fileID: location?.fileID, line: location?.line))
    }
    if let location, IssueCapture.keep(message, kind: kind, at: location) { return }
    recordXCTestFailure(tagged, at: location)
  }
}

/// What a report the library would have placed in one of its own files says, placed at the test
/// instead.
let misplacedNote = """
   (swift-effects placed this report at the test: the line it found is in the library's own code, \
  which is a bug of the library; please report it.)
  """

/// Records `message` as a failure of the running XCTest case, at `location`: XCTest's own
/// `XCTFail` takes a `StaticString` file, which a read site found on the stack or a test's
/// declaration is not, so the failure is recorded on the case itself, by `String` path.
///
/// The case is the one ``XCTestCaseObserver`` saw start. A failure with no place is recorded on
/// the case with no line of this library: Xcode shows it on the test; swift-corelibs-xctest,
/// which needs a file, names the test's class. Should the observer have missed the case's start
/// (it registers when the binary loads, except from a Swift 6.2 compiler), `XCTFail` records it
/// on XCTest's current case, with the place at the start of the text.
private func recordXCTestFailure(_ message: String, at location: FailureLocation?) {
  guard let testCase = XCTestCaseObserver.shared.currentCase else {
    XCTFail(placed(message, at: location))
    return
  }
  #if canImport(Darwin)
  var issue = XCTIssue(type: .assertionFailure, compactDescription: message)
  if let location {
    issue.sourceCodeContext = XCTSourceCodeContext(
      location: XCTSourceCodeLocation(filePath: location.filePath, lineNumber: location.line)
    )
  }
  testCase.record(issue)
  #else
  testCase.recordFailure(
    withDescription: message,
    inFile: location?.filePath ?? String(reflecting: type(of: testCase)),
    atLine: location?.line ?? 0,
    expected: true
  )
  #endif
}

/// `message`, preceded by `location` as a compiler names a place, unless the message already names
/// it: `AppTests/LoginTests.swift:42: Spy "fetch" was called 1 time, expected 2 times.`
private func placed(_ message: String, at location: FailureLocation?) -> String {
  guard let location, !message.contains(location.description) else { return message }
  return "\(location): \(message)"
}
