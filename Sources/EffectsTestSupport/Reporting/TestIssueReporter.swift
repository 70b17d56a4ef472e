package import Effects
import Foundation
import Testing

/// The reporter `Effects` finds in a test binary, by name, to report what it cannot answer: a live
/// co-effect read inside a test, a refused `Environment.bootstrap(_:)`.
///
/// Its mangled name is spelled in `Effects` (`TestSupportLink.reporterName`); renaming or moving
/// it breaks the link, which `EnvironmentCurrentTests` catches. It is `package`, not internal: an
/// optimized build (`-O -wmo`, as a Release test run) drops the metadata of an internal type
/// nothing references, and the runtime would not find it by name.
package enum TestIssueReporter: TestIssueReporting {
  package static func report(_ message: String, at callSite: CallSite?) {
    reportRead(message, fallback: callSite)
  }

  package static func report(_ message: String, exactlyAt callSite: CallSite) {
    if Test.current == nil && isSwiftTestingRun {
      warn(message)
    } else {
      reportIssue(message, at: callSite)
    }
  }
}

/// Records a failure about a co-effect read: at the line of the code under test that read it when
/// the stack says (see ``ReadSite``), else at `fallback` (where the environment was made), else at
/// the running test's declaration.
///
/// Outside any test (code a Swift Testing run executes before or between tests, or the child
/// process of an exit test) there is no test to fail: the message goes to standard error.
package func reportRead(_ message: String, fallback: CallSite?) {
  if let test = Test.current {
    let file = ReadSite.TestFile(fileID: test.sourceLocation.fileID, filePath: test.sourceLocation.filePath)
    if let site = ReadSite.caller(test: file) {
      recordFailure(
        message,
        at: FailureLocation(fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column)
      )
    } else if let fallback {
      reportIssue(message, at: fallback)
    } else {
      recordFailure(message, at: FailureLocation(test.sourceLocation))
    }
  } else {
    // XCTest places a failure only at a `StaticString` path: the read site goes into the text.
    let site = ReadSite.caller()
    let text = site.map { "\(message) (Read at \($0).)" } ?? message
    if isSwiftTestingRun {
      warn(text)
    } else {
      reportIssue(text, at: fallback ?? CallSite())
    }
  }
}

/// Whether this process runs Swift Testing tests only (`swift test` on Linux runs the test binary
/// once per library, and tells it which): then no XCTest case can be running.
private let isSwiftTestingRun: Bool = {
  let arguments = CommandLine.arguments
  return zip(arguments, arguments.dropFirst()).contains { $0 == ("--testing-library", "swift-testing") }
}()
