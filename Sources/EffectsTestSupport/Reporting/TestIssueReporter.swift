package import Effects
import Foundation
import Testing

/// The reporter `Effects` finds in a test binary, by name, to report what it cannot answer: a live
/// co-effect read inside a test, a refused `Environment.bootstrap(_:)`.
///
/// Its name is spelled in `Effects` (`TestSupportLink.reporterName`), which finds it with
/// `NSClassFromString`: so it is a class, never made (its members are static). Renaming or moving
/// it breaks the link, which `EnvironmentCurrentTests` catches. It is `package`, not internal: an
/// optimized build (`-O -wmo`, as a Release test run) drops the metadata of an internal type
/// nothing references, and the runtime would not find it by name.
package final class TestIssueReporter: TestIssueReporting {
  private init() {}

  package static func report(_ message: String, kind: ReportKind, at callSite: CallSite?) {
    reportRead(message, kind: kind, fallback: callSite)
  }

  package static func report(_ message: String, kind: ReportKind, exactlyAt callSite: CallSite) {
    recordFailure(message, kind: kind, at: FailureLocation(callSite))
  }

  package static func reportLiveRead(_ message: String, at callSite: CallSite?) {
    reportRead(message, kind: .liveRead, fallback: callSite, routing: .liveRead)
  }

  /// A fresh test environment, on a scheduler of its own, when a test of either framework runs on
  /// this task: where a live read would be a failure of that test.
  package static func testEnvironment(madeAt callSite: CallSite) -> Environment? {
    switch TestHost.current.destination(of: .liveRead) {
    case .swiftTestingIssue, .xcTestFailure:
      let scheduler = TestScheduler()
      let origin = XCTestCaseOrigin.running
      scheduler.state.withLock {
        $0.unattended = true
        $0.origin = origin
      }
      return Environment.test(scheduler: scheduler, origin: "withEnvironment({ … })", callSite: callSite)
    case .standardError, .nowhere:
      return nil
    }
  }
}

/// Reports `message` about a co-effect read where ``TestHost/destination(of:)`` sends a report of
/// `kind`: at the line of the code under test that read it when the stack says (see ``ReadSite``),
/// else at `fallback` (where the environment was made), else at the running test's declaration
/// (Swift Testing) or the running case (XCTest). A line on standard error has no place: there the
/// read site goes into the text, `(Read at Module/File.swift:42.)`.
///
/// With no test running, a failure (a test environment asked for what it does not provide) is a
/// line on standard error, and a read of the live root is the host's own (see ``ReportRouting``).
package func reportRead(_ message: String, kind: ReportKind, fallback: CallSite?) {
  reportRead(message, kind: kind, fallback: fallback, routing: .failure)
}

/// What a live read inside a virtual-time scope adds to its report: the scope has a test
/// environment, so the code read one it kept from before the scope opened.
private let keptFromBeforeTheScope = """
   The read is inside a withVirtualTime scope, which has a test environment: the code read an environment it \
  kept from before the scope opened (taken as a default in setUp, or stored in a static). Make it inside the \
  scope, or hand it the scope's environment.
  """

/// How an XCTest case gives every method, and its `setUp`, one test environment.
private let forTheWholeCase = """
   In XCTest, give the whole case one: override invokeTest() { withEnvironment(.test(scheduler: scheduler)) { \
  super.invokeTest() } }, and open each method's scope with scheduler.withVirtualTime { … }.
  """

/// What a live read in an XCTest case's `setUp` adds to its report: why the environment the test
/// method sets does not cover it, and how to cover it.
private let readInSetUp = """
   It was read in setUp(), which runs before the test method, outside the environment and the scope the \
  method sets. Give the whole case a test environment: override invokeTest() { withEnvironment(.test(scheduler: \
  scheduler)) { super.invokeTest() } }, and open each method's scope with scheduler.withVirtualTime { … } \
  (the article Testing with XCTest).
  """

/// ``reportRead(_:kind:fallback:)`` for a report routed as `routing`.
func reportRead(_ message: String, kind: ReportKind, fallback: CallSite?, routing: ReportRouting) {
  let destination = TestHost.current.destination(of: routing)
  // The live root read inside a scope, which has a test environment: the code kept an environment
  // from before the scope opened.
  var message = message
  if routing == .liveRead, TestScheduler.scoped != nil {
    message += destination == .xcTestFailure ? keptFromBeforeTheScope + forTheWholeCase : keptFromBeforeTheScope
  }
  switch destination {
  case .nowhere:
    return
  case .swiftTestingIssue:
    // An exit test's child has no `Test.current`: there a read written in the body of
    // `#expect(processExitsWith:)` (a macro's expansion) is not found on the stack, and with no
    // fallback either the issue is placed at no line of the test.
    let test = Test.current
    let file = test.map { ReadSite.TestFile(fileID: $0.sourceLocation.fileID, filePath: $0.sourceLocation.filePath) }
    let location =
      ReadSite.caller(test: file) ?? fallback.map(FailureLocation.init)
      ?? test.map { FailureLocation($0.sourceLocation) }
    record(message, kind: kind, at: location, in: destination)
  case .xcTestFailure:
    let inSetUp =
      routing == .liveRead && XCTestCaseObserver.shared.currentCase.map(ReadSite.isInSetUp(of:)) == true
    let text = inSetUp ? message + readInSetUp : message
    record(text, kind: kind, at: ReadSite.caller() ?? fallback.map(FailureLocation.init), in: destination)
  case .standardError:
    if let site = ReadSite.caller() {
      record("\(message) (Read at \(site).)", kind: kind, at: nil, in: destination)
    } else {
      record(message, kind: kind, at: fallback.map(FailureLocation.init), in: destination)
    }
  }
}
