import Foundation

/// How `Effects`, which never imports a test framework, reports into the test that is running.
///
/// `EffectsTestSupport` declares a class conforming to this protocol. A test binary links that
/// module, so Foundation's `NSClassFromString` finds the class by its name (`Module.Class`, the
/// form Swift documents for it); an app never links it, and a process that does not run tests
/// never looks, so there `TestSupportLink.reporter` is nil. No registration call is needed: a test
/// that never touches test support is still covered. Only public, documented API: `Effects` ships
/// inside apps, so it declares no runtime symbol and reads no runtime memory (`.ci/public-api`
/// checks it).
///
/// Each requirement says what happened; test support alone decides where it goes (a Swift Testing
/// issue, an XCTest failure, a line on standard error, or nothing), by one rule for every host.
package protocol TestIssueReporting: Sendable {
  /// Records a failure of `kind` with `message` in the running test: at the line of the code that
  /// caused it when it can be found, else at `callSite`, else at the test. With no test running it
  /// is still said, on standard error.
  static func report(_ message: String, kind: ReportKind, at callSite: CallSite?)

  /// Records a failure of `kind` with `message` in the running test at `callSite`, a line the
  /// caller knows (the call of `Environment.bootstrap(_:)`). With no test running it is still said,
  /// on standard error.
  static func report(_ message: String, kind: ReportKind, exactlyAt callSite: CallSite)

  /// Records that code read the live root environment with no environment set, placed like
  /// ``report(_:at:)`` — but only while a test runs. Outside any test the read is the host's own
  /// (an app hosting tests reads its root at launch, before any test starts), and nothing is said.
  /// A task that a test's virtual-time scope runs is in that test even when it carries no test (a
  /// detached task, which inherits no task-local value, so not the scope's environment either):
  /// there the read is a failure of the run, like any other.
  static func reportLiveRead(_ message: String, at callSite: CallSite?)

  /// A fresh `Environment.test()`, made at `callSite`, when a test runs on this task; nil
  /// otherwise. What the closure form of `withEnvironment` starts from in a test that set no
  /// environment, as the `.environment { … }` trait's closure form does.
  static func testEnvironment(madeAt callSite: CallSite) -> Environment?
}

extension TestIssueReporting {
  /// A reporter that does not tell a live read apart reports it as any failure.
  package static func reportLiveRead(_ message: String, at callSite: CallSite?) {
    report(message, kind: .liveRead, at: callSite)
  }

  /// A reporter that makes no environments leaves the live root as it is.
  package static func testEnvironment(madeAt callSite: CallSite) -> Environment? {
    nil
  }
}

package enum TestSupportLink {
  /// The name of the class `EffectsTestSupport.TestIssueReporter`, as `NSClassFromString` takes it.
  static let reporterName = "EffectsTestSupport.TestIssueReporter"

  /// Test support's reporter when this process runs tests; nil in an app, and in a tool that links
  /// test support without running tests (a benchmark). Once found, it is kept; until then it is
  /// looked up again (a test host loads the test bundle after it launches).
  static var reporter: (any TestIssueReporting.Type)? {
    guard isRunningTests else { return nil }
    if let found = found.snapshot { return found }
    let reporter = NSClassFromString(reporterName) as? any TestIssueReporting.Type
    found.withLock { $0 = $0 ?? reporter }
    return reporter
  }

  private static let found = Locked<(any TestIssueReporting.Type)?>(nil)

  /// Reports a read of the live root, `message`, in the running test through test support (see
  /// ``TestIssueReporting/reportLiveRead(_:at:)``).
  ///
  /// Without test support in the process nothing is said. That is an app hosting tests before
  /// XCTest has loaded the test bundle — Xcode injects it once the app has finished launching, so
  /// every read of the app's launch code comes first, and no test can be running yet — or a test
  /// target that does not link `EffectsTestSupport`, whose tests asked for no reports.
  static func report(
    _ message: String,
    at callSite: CallSite?,
    reporter: (any TestIssueReporting.Type)? = TestSupportLink.reporter
  ) {
    reporter?.reportLiveRead(message, at: callSite)
  }

  /// Whether this process was started to run tests: by `swift test` (a `.xctest` bundle, or Swift
  /// Testing's `--testing-library` argument), by `xctest` or SwiftPM's testing helper, or by Xcode
  /// (its `XCTest…` environment variables).
  package static let isRunningTests: Bool = {
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
  let line = "swift-effects: \(ReportBudget.bounded(message))"
  if let sink = StandardErrorSink.current {
    sink(line)
  } else {
    FileHandle.standardError.write(Data("\(line)\n".utf8))
  }
}

/// Where ``warn(_:)`` writes instead of standard error, for the library's own tests: bound by test
/// support's `withTestHost(_:_:)`, which answers each line (without its newline) in the order it
/// was said. Task-local, so a test running in parallel never writes into another's lines.
package enum StandardErrorSink {
  @TaskLocal package static var current: (@Sendable (String) -> Void)?
}
