import Effects
import Foundation
import Testing

/// What runs tests in this process, and which test runs now: the facts every report of this
/// library is routed by, through ``destination(of:)``.
///
/// The hosts, and how each is told apart:
/// - **SwiftPM's Swift Testing run** passes `--testing-library swift-testing`: no XCTest case ever
///   runs in that process, and only tests run code there.
/// - **XCTest's runner** — Xcode, the `xctest` tool, and SwiftPM's XCTest run on Linux — passes no
///   `--testing-library` (a SwiftPM that names the library passes `xctest`). Xcode runs Swift
///   Testing's tests in that same process, and an app-hosted bundle (the iOS default) runs inside
///   the app, after the app's own launch code and beside whatever else the app does.
/// - **The child process of an exit test** runs the body of `#expect(processExitsWith:)` with no
///   `Test.current`, but with Swift Testing's configuration in force: an issue recorded there is sent
///   through Swift Testing's back channel to the parent, as an issue of the test that started the
///   exit test. So that body counts as the test.
/// - Any other process (an app, a benchmark that links test support) runs no test.
///
/// And off the test's task — a `Thread`, a Dispatch callback, a detached task, work still running
/// after the test returned — no `Test.current` says which test runs. One fact still ties a task to
/// a test there: a task that an open virtual-time scope runs (a detached task the scope's code
/// started, say) is that test's code, since only a test opens a scope.
package struct TestHost: Sendable, Equatable {
  /// The test framework that drives this process.
  package enum Runner: Sendable, Equatable {
    /// SwiftPM's Swift Testing run (`--testing-library swift-testing`).
    case swiftTesting
    /// XCTest's runner: Xcode, `xctest`, SwiftPM's XCTest run. Swift Testing may run in it too.
    case xcTest
    /// No test framework: the process does not run tests.
    case none
  }

  /// The framework that drives this process.
  package var runner: Runner
  /// Whether the current task runs a Swift Testing test: `Test.current`, or an exit test's body in
  /// its child process.
  package var swiftTestingTest: Bool
  /// Whether an XCTest case is running, as ``XCTestCaseObserver`` knows it.
  package var xcTestCase: Bool
  /// Whether the current task is one that an open virtual-time scope runs, whether or not it
  /// carries the scope: the test's own task, a task it started, a detached task included.
  package var virtualTimeScope: Bool

  package init(runner: Runner, swiftTestingTest: Bool, xcTestCase: Bool, virtualTimeScope: Bool = false) {
    self.runner = runner
    self.swiftTestingTest = swiftTestingTest
    self.xcTestCase = xcTestCase
    self.virtualTimeScope = virtualTimeScope
  }
}

/// What a report is about, which decides whether it means anything outside a test.
package enum ReportRouting: Sendable {
  /// Something wrong wherever it happens: a failed assertion, a misuse (a refused bootstrap), a
  /// co-effect that a test's environment does not provide.
  case failure
  /// The live root environment read with no environment set: wrong only in a test, which should
  /// have set one. Outside any test, it is the host reading its own world. A task that a test's
  /// virtual-time scope runs is in a test, though it carries none (a detached task): there the
  /// read is a failure.
  case liveRead
}

extension TestHost {
  /// Where a report goes.
  package enum Destination: Sendable, Equatable {
    /// An issue of the running Swift Testing test (`Issue.record`), placed at any source location.
    case swiftTestingIssue
    /// A failure of the running XCTest case (`XCTFail`), placed at a call site.
    case xcTestFailure
    /// One `swift-effects: …` line on standard error.
    case standardError
    /// Nowhere: nothing is said.
    case nowhere
  }

  /// Where a report routed as `routing` goes: the one routing of everything this library reports.
  ///
  /// 1. A Swift Testing test runs in this task → an issue of that test (from an exit test's child
  ///    process, Swift Testing forwards it to the test that started the exit test). Asked first:
  ///    `Test.current` belongs to the task, while an XCTest case running is the whole process's
  ///    fact, and Xcode runs both frameworks in one process.
  /// 2. An XCTest case runs → a failure of that case, at its place (the running case, by `String`
  ///    path: see `recordXCTestFailure`).
  /// 3. No test runs on this task — an app's launch code before any test starts, a `static let`
  ///    initialised before the first test, work left running after the test returned, XCTest's
  ///    runner between two cases, a `Thread`, a Dispatch callback or a detached task, none of which
  ///    carries a test:
  ///    - a failure in SwiftPM's Swift Testing run is an issue with no test: Swift Testing records
  ///      it against the run, which fails. (In an exit test's child, rule 1 holds on every thread:
  ///      `ExitTest.current` is the process's, and the child's configuration takes an issue
  ///      recorded with no test, so it reaches the test that ran the exit test.)
  ///    - any other failure is one line on standard error — never an `XCTFail` with no case, which
  ///      XCTest drops (swift-corelibs-xctest) or pins on nothing;
  ///    - a live read in a task that a virtual-time scope runs (``virtualTimeScope``) is a test's
  ///      code reading the live root, which has the live scheduler and not the scope's: a failure,
  ///      as above;
  ///    - any other live read is the host's own, and nothing is said — except in SwiftPM's Swift
  ///      Testing run, where only tests run code, so the read came from a test's code on a thread
  ///      that carries no `Test.current`: there it is a line on standard error, as it always was.
  ///      It stays a line, not a failure: a Dispatch callback of a test that asked for the live
  ///      world (`.environment(.live)`) reads the root too, and nothing tells the two apart.
  package func destination(of routing: ReportRouting) -> Destination {
    if swiftTestingTest { return .swiftTestingIssue }
    if xcTestCase { return .xcTestFailure }
    let routing = virtualTimeScope ? .failure : routing
    switch (routing, runner) {
    case (.failure, .swiftTesting): return .swiftTestingIssue
    case (.failure, _): return .standardError
    case (.liveRead, .swiftTesting): return .standardError
    case (.liveRead, _): return .nowhere
    }
  }

  /// The facts now, for the current task: what ``withTestHost(_:_:)`` forces, else what the process
  /// and its test frameworks say.
  package static var current: TestHost {
    if let forced = TestHostOverride.current { return forced.host }
    let runner = Runner.ofThisProcess
    return TestHost(
      runner: runner,
      swiftTestingTest: Test.current != nil || isExitTestBody,
      xcTestCase: runner == .xcTest && XCTestCaseObserver.shared.caseMayBeRunning,
      virtualTimeScope: isVirtualTimeScopeTask
    )
  }

  /// Whether the current task is one that an open virtual-time scope runs: the scope's own tasks
  /// carry it as a task-local, and a detached task it started is one it adopted when it first
  /// queued it (see `VirtualExecutor`). False where the engine is not available.
  private static var isVirtualTimeScopeTask: Bool {
    guard #available(EffectsVirtualTime , *) else { return false }
    return VirtualExecutor.current != nil
  }

  /// Whether this process is the child of an exit test, running its body for the test that
  /// started it. Read each time: Swift Testing sets it just before the body runs.
  private static var isExitTestBody: Bool {
    #if os(macOS) || os(Linux) || os(Windows)
    ExitTest.current != nil
    #else
    false
    #endif
  }
}

extension TestHost.Runner {
  /// The runner of this process, from its arguments: see ``TestHost``.
  static let ofThisProcess: Self = {
    guard TestSupportLink.isRunningTests else { return .none }
    let arguments = CommandLine.arguments
    let library = zip(arguments, arguments.dropFirst()).first { $0.0 == "--testing-library" }?.1
    switch library {
    case nil, "xctest": return .xcTest
    case "swift-testing": return .swiftTesting
    default: return .none
    }
  }()
}

/// What one report became under ``withTestHost(_:_:)``: where it went, its text, and its place.
package struct RoutedReport: Equatable, Sendable, CustomStringConvertible {
  package var destination: TestHost.Destination
  /// The text recorded; on standard error, the whole line as written, without its newline.
  package var text: String
  /// `Module/File.swift` of the place it is recorded at; nil where there is none (standard error,
  /// an issue placed at no source location).
  package var fileID: String?
  /// The line of that place.
  package var line: Int?

  package init(_ destination: TestHost.Destination, _ text: String, fileID: String? = nil, line: Int? = nil) {
    self.destination = destination
    self.text = text
    self.fileID = fileID
    self.line = line
  }

  /// `standardError: text`, or `xcTestFailure Module/File.swift:42: text`.
  package var description: String {
    let place = fileID.map { " \($0):\(line ?? 0)" } ?? ""
    return "\(destination)\(place): \(text)"
  }
}

/// Runs `body` as if the process and the current task were `host`, and answers what each report
/// made in its task became, instead of recording it: Swift Testing issues and XCTest failures with
/// their places, and the lines written to standard error (test support's and `Effects`' own).
///
/// For the library's own tests, which force a host this machine cannot run — Xcode's XCTest with no
/// case running, an app-hosted bundle before its first test — and assert exactly what is said.
/// Task-local, so a test running in parallel is never routed by another's host.
package func withTestHost<R>(
  _ host: TestHost,
  _ body: () throws -> R
) rethrows -> (result: R, reports: [RoutedReport]) {
  let override = TestHostOverride(host: host)
  let result = try TestHostOverride.$current.withValue(override) {
    try StandardErrorSink.$current.withValue({ line in override.keep(RoutedReport(.standardError, line)) }) {
      try body()
    }
  }
  return (result, override.reports)
}

/// The host ``withTestHost(_:_:)`` forces, and the reports it keeps.
final class TestHostOverride: Sendable {
  @TaskLocal static var current: TestHostOverride?

  let host: TestHost
  private let kept = Locked<[RoutedReport]>([])

  init(host: TestHost) {
    self.host = host
  }

  var reports: [RoutedReport] {
    kept.snapshot
  }

  func keep(_ report: RoutedReport) {
    kept.withLock { $0.append(report) }
  }
}
