import Foundation

/// How `Effects`, which never imports a test framework, reports into the test that is running.
///
/// `EffectsTestSupport` declares a type conforming to this protocol. A test binary links that
/// module, so the runtime finds the type by its mangled name; an app never links it, and a process
/// that does not run tests never looks, so there `TestSupportLink.reporter` is nil. No registration
/// call is needed: a test that never touches test support is still covered.
package protocol TestIssueReporting: Sendable {
  /// Records a failure with `message` in the running test: at the line of the code that caused it
  /// when it can be found, else at `callSite`, else at the test.
  static func report(_ message: String, at callSite: CallSite?)

  /// Records a failure with `message` in the running test at `callSite`, a line the caller knows
  /// (the call of `Environment.bootstrap(_:)`).
  static func report(_ message: String, exactlyAt callSite: CallSite)
}

enum TestSupportLink {
  /// The mangled name of `EffectsTestSupport.TestIssueReporter`.
  static let reporterName = "18EffectsTestSupport17TestIssueReporterO"

  /// Test support's reporter when this process runs tests; nil in an app, and in a tool that links
  /// test support without running tests (a benchmark). Once found, it is kept; until then it is
  /// looked up again (a test host loads the test bundle after it launches).
  static var reporter: (any TestIssueReporting.Type)? {
    guard isRunningTests else { return nil }
    if let found = found.snapshot { return found }
    let reporter = _typeByName(reporterName) as? any TestIssueReporting.Type
    found.withLock { $0 = $0 ?? reporter }
    return reporter
  }

  private static let found = Locked<(any TestIssueReporting.Type)?>(nil)

  /// Reports `message` in the running test through test support; without it, on standard error.
  static func report(_ message: String, at callSite: CallSite?) {
    if let reporter { reporter.report(message, at: callSite) } else { warn(message) }
  }

  /// Whether this process was started to run tests: by `swift test` (a `.xctest` bundle, or Swift
  /// Testing's `--testing-library` argument), by `xctest` or SwiftPM's testing helper, or by Xcode
  /// (its `XCTest…` environment variables).
  static let isRunningTests: Bool = {
    let process = ProcessInfo.processInfo
    let variables = ["XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier"]
    if variables.contains(where: { process.environment[$0] != nil }) { return true }
    return process.arguments.contains { argument in
      let name = argument.split(separator: "/").last.map(String.init) ?? argument
      return argument == "--testing-library" || name.hasSuffix(".xctest") || name == "xctest"
        || name == "swiftpm-testing-helper"
    }
  }()
}

/// Writes `message` to standard error as one `swift-effects: …` line: how the library says what
/// it cannot report as a test failure (no test is running, or the process is an app).
package func warn(_ message: String) {
  FileHandle.standardError.write(Data("swift-effects: \(message)\n".utf8))
}
