@testable import Effects
import EffectsTestHelpers
@testable import EffectsTestSupport
import Testing

/// Every report goes where the host can take it: the running Swift Testing test, the running
/// XCTest case, or — with no test running — one line on standard error (a failure) or nothing (the
/// host reading its own world). Hosts this machine cannot run are forced with `withTestHost`.
@Suite struct TestHostTests {
  /// Xcode's XCTest (no `--testing-library`), with no case running and no Swift Testing test: at
  /// launch, in a static initialiser run before the first case, after the last one.
  static let xcodeWithNoCase = TestHost(runner: .xcTest, swiftTestingTest: false, xcTestCase: false)
  /// Xcode's XCTest, with a case running.
  static let xcodeInACase = TestHost(runner: .xcTest, swiftTestingTest: false, xcTestCase: true)
  /// SwiftPM's Swift Testing run, in a test.
  static let swiftTestingInATest = TestHost(runner: .swiftTesting, swiftTestingTest: true, xcTestCase: false)
  /// SwiftPM's Swift Testing run, on a thread no test's task runs (a Dispatch callback).
  static let swiftTestingWithNoTest = TestHost(runner: .swiftTesting, swiftTestingTest: false, xcTestCase: false)
  /// A process that runs no tests, linking test support (a benchmark).
  static let noTests = TestHost(runner: .none, swiftTestingTest: false, xcTestCase: false)

  /// The whole routing, row by row.
  @Test func eachHostSendsEachKindOfReportToOnePlace() {
    let rows: [(TestHost, ReportRouting, TestHost.Destination)] = [
      (Self.swiftTestingInATest, .failure, .swiftTestingIssue),
      (Self.swiftTestingInATest, .liveRead, .swiftTestingIssue),
      // An exit test's body in its child process: Swift Testing forwards the issue to the test.
      (TestHost(runner: .swiftTesting, swiftTestingTest: true, xcTestCase: false), .liveRead, .swiftTestingIssue),
      // Xcode runs Swift Testing's tests in XCTest's runner: the test's task says it runs.
      (TestHost(runner: .xcTest, swiftTestingTest: true, xcTestCase: false), .failure, .swiftTestingIssue),
      (Self.xcodeInACase, .failure, .xcTestFailure),
      (Self.xcodeInACase, .liveRead, .xcTestFailure),
      (Self.xcodeWithNoCase, .failure, .standardError),
      (Self.xcodeWithNoCase, .liveRead, .nowhere),
      (Self.swiftTestingWithNoTest, .failure, .swiftTestingIssue),
      (Self.swiftTestingWithNoTest, .liveRead, .standardError),
      (Self.noTests, .failure, .standardError),
      (Self.noTests, .liveRead, .nowhere),
    ]
    for (host, kind, destination) in rows {
      #expect(host.destination(of: kind) == destination, "\(host), \(kind)")
    }
  }

  // MARK: XCTest under Xcode, no case running

  @Test func aFailedAssertionWithNoXCTestCaseRunningIsALineOnStandardErrorNamingItsLine() {
    let spy = Spy<String, Void>("tokenStore.save")
    spy.record("abd")
    let line = #line + 1
    let reports = withTestHost(Self.xcodeWithNoCase) { spy.assertCalls(count: 2) }.reports
    #expect(
      reports == [
        RoutedReport(
          .standardError,
          """
          swift-effects: EffectsTestSupportTests/TestHostTests.swift:\(line): Spy "tokenStore.save" was called 1 time, \
          expected 2 times:
            [0] "abd"
          [ReportKind.assertionFailed]
          """
        )
      ]
    )
  }

  @Test func theSameAssertionInARunningXCTestCaseIsAnXCTFailAtItsLine() {
    let spy = Spy<String, Void>("tokenStore.save")
    spy.record("abd")
    let line = #line + 1
    let reports = withTestHost(Self.xcodeInACase) { spy.assertCalls(count: 2) }.reports
    #expect(
      reports == [
        RoutedReport(
          .xcTestFailure,
          """
          Spy "tokenStore.save" was called 1 time, expected 2 times:
            [0] "abd"
          [ReportKind.assertionFailed]
          """,
          fileID: "EffectsTestSupportTests/TestHostTests.swift",
          line: line
        )
      ]
    )
  }

  @Test func theSameAssertionInASwiftTestingTestIsAnIssueAtItsLine() {
    let spy = Spy<String, Void>("tokenStore.save")
    spy.record("abd")
    let line = #line + 1
    let reports = withTestHost(Self.swiftTestingInATest) { spy.assertCalls(count: 2) }.reports
    #expect(
      reports == [
        RoutedReport(
          .swiftTestingIssue,
          """
          Spy "tokenStore.save" was called 1 time, expected 2 times:
            [0] "abd"
          [ReportKind.assertionFailed]
          """,
          fileID: "EffectsTestSupportTests/TestHostTests.swift",
          line: line
        )
      ]
    )
  }

  /// In SwiftPM's Swift Testing run a failure on a thread that carries no test is an issue with no
  /// test, which fails the run: never an `XCTFail` with no case, which was dropped.
  @Test func aFailureWithNoTestInSwiftPMsSwiftTestingRunIsAnIssueOfTheRun() {
    let line = #line + 2
    let reports = withTestHost(Self.swiftTestingWithNoTest) {
      reportIssue("boom", kind: .assertionFailed, at: CallSite())
    }.reports
    #expect(
      reports == [
        RoutedReport(
          .swiftTestingIssue,
          "boom [ReportKind.assertionFailed]",
          fileID: "EffectsTestSupportTests/TestHostTests.swift",
          line: line
        )
      ]
    )
  }

  @Test func aFailureInAProcessThatRunsNoTestsIsALineOnStandardError() {
    let line = #line + 1
    let reports = withTestHost(Self.noTests) { reportIssue("boom", kind: .assertionFailed, at: CallSite()) }.reports
    #expect(
      reports == [
        RoutedReport(
          .standardError,
          "swift-effects: EffectsTestSupportTests/TestHostTests.swift:\(line): boom [ReportKind.assertionFailed]"
        )
      ]
    )
  }

  /// A test environment read for what it does not provide, outside any case: the read site goes
  /// into the line, as it does into an XCTest failure.
  @Test func anUnprovidedReadWithNoXCTestCaseRunningIsALineNamingTheReadSite() {
    let environment = Environment.unimplemented()
    let made = #line - 1
    let line = #line + 1
    let reports = withTestHost(Self.xcodeWithNoCase) { _ = environment.locale }.reports
    let read =
      """
      Environment.locale was read, but the environment made by Environment.unimplemented() at \
      EffectsTestSupportTests/TestHostTests.swift:\(made) does not provide it. Set environment.locale in the test to \
      the value the code under test should see.
      """
    // Where the stack is not read, the line names no read site: the message names where the
    // environment was made, which is the place it falls back to.
    let expected =
      readSitesAreFound
      ? "swift-effects: \(read) (Read at EffectsTestSupportTests/TestHostTests.swift:\(line).) [ReportKind.missingTestValue]"
      : "swift-effects: \(read) [ReportKind.missingTestValue]"
    #expect(reports == [RoutedReport(.standardError, expected)])
  }

  // MARK: An app hosting the tests, before its first test

  /// The host app bootstrapped its root at launch, and its launch code reads it, once the test
  /// bundle is loaded but before XCTest starts the first case: the app reading its own world, not
  /// a test that forgot to set one. Nothing is said. The same read in a running case is reported.
  @Test func anAppHostsReadsOfItsRootBeforeTheFirstCaseAreNotReported() throws {
    let root = RootEnvironment()
    var hosted = Environment.live
    hosted[FeatureFlagsKey.self] = ["hosted"]
    try root.bootstrap(hosted, at: CallSite(fileID: "App/main.swift", filePath: "/App/main.swift", line: 3))
    let environment = root.publish(marking: true)

    let atLaunch = withTestHost(Self.xcodeWithNoCase) {
      _ = environment.clock
      return environment[FeatureFlagsKey.self]
    }
    #expect(atLaunch.result == ["hosted"], "the read still answers the root's value")
    #expect(atLaunch.reports == [])

    let line = #line + 1
    let inACase = withTestHost(Self.xcodeInACase) { _ = environment[FeatureFlagsKey.self] }.reports
    let read =
      """
      Environment.current[FeatureFlagsKey.self] was read in a test, but no environment was set for this test, so it \
      answered its value from the root environment bootstrapped at App/main.swift:3. A test should control what it \
      reads and where its effects go: run it with @Test(.environment(.test())) or inside withEnvironment(.test()) \
      { … }, or set environment[FeatureFlagsKey.self] (or the property that wraps it). To use the real world on \
      purpose (an integration test), say so: withEnvironment(.live) { … } or @Test(.environment(.live)).
      """
    // Placed at the read, as Swift Testing places it; the root has no line of its own to fall back to.
    #expect(inACase.map(\.destination) == [.xcTestFailure])
    #expect(inACase.map(\.text) == [read + " [ReportKind.liveRead]"])
    #expect(inACase.map(\.fileID) == [readSitesAreFound ? "EffectsTestSupportTests/TestHostTests.swift" : nil])
    #expect(inACase.map(\.line) == [readSitesAreFound ? line : nil])
  }

  /// A double bootstrap at launch is real misuse: one line on standard error, never a test failure.
  @Test func anAppHostsDoubleBootstrapBeforeTheFirstCaseIsOneLineOnStandardError() throws {
    let root = RootEnvironment()
    try root.bootstrap(.live, at: CallSite(fileID: "App/main.swift", filePath: "/App/main.swift", line: 3))
    let second = CallSite(fileID: "App/Other.swift", filePath: "/App/Other.swift", line: 9)
    let error = try #require(throws: BootstrapError.self) { try root.bootstrap(.live, at: second) }
    let reports = withTestHost(Self.xcodeWithNoCase) { error.report(reporter: TestIssueReporter.self) }.reports
    #expect(
      reports == [
        RoutedReport(
          .standardError,
          """
          swift-effects: Environment.bootstrap(_:) was called twice: first at App/main.swift:3, again at \
          App/Other.swift:9. The second call changed nothing: the first environment stays the root. Bootstrap the \
          process's environment once, at launch; to change it for one scope (a test, a request), use \
          withEnvironment(_:operation:) instead. [ReportKind.bootstrapRefused]
          """
        )
      ]
    )
  }

  /// Before XCTest loads the test bundle — all of an app's launch code runs then — test support is
  /// not in the process: a read says nothing, and a misuse is still one line on standard error.
  @Test func beforeTheTestBundleIsLoadedAReadSaysNothingAndAMisuseIsOneLine() throws {
    let reports = withTestHost(Self.xcodeWithNoCase) {
      TestSupportLink.report("Environment.current.clock was read in a test, …", at: nil, reporter: nil)
      BootstrapError(first: nil, second: CallSite(fileID: "App/Late.swift", filePath: "/App/Late.swift", line: 12))
        .report(reporter: nil)
    }.reports
    #expect(
      reports == [
        RoutedReport(
          .standardError,
          """
          swift-effects: Environment.bootstrap(_:) was called at App/Late.swift:12, after Environment.current had \
          already been read outside withEnvironment, so code has already seen the previous root. This call changed \
          nothing: the root stays the one already read. Bootstrap once, at launch, before anything reads \
          Environment.current.
          """
        )
      ]
    )
  }

  /// In SwiftPM's Swift Testing run only tests run code: a live read on a thread that carries no
  /// test (a Dispatch callback) is still said, on standard error, with the line that read.
  @Test func aLiveReadWithNoTestInSwiftPMsSwiftTestingRunIsALineNamingTheReadSite() {
    let environment = RootEnvironment().publish(marking: true)
    let line = #line + 1
    let reports = withTestHost(Self.swiftTestingWithNoTest) { _ = environment.timeZone }.reports
    let read =
      """
      swift-effects: Environment.current.timeZone was read in a test, but no environment was set for this test, so it \
      answered the live TimeZone. A test should control what it reads and where its effects go: run it with \
      @Test(.environment(.test())) or inside withEnvironment(.test()) { … }, or set environment.timeZone. To use the \
      real world on purpose (an integration test), say so: withEnvironment(.live) { … } or \
      @Test(.environment(.live)).
      """
    let expected =
      (readSitesAreFound ? "\(read) (Read at EffectsTestSupportTests/TestHostTests.swift:\(line).)" : read)
      + " [ReportKind.liveRead]"
    #expect(reports == [RoutedReport(.standardError, expected)])
  }

  /// The host is the test's own: a test running beside this one is routed as usual.
  @Test func aForcedHostStaysInItsTask() async {
    let detached = await withTestHost(Self.xcodeWithNoCase) {
      Task.detached { TestHost.current }
    }.result.value
    #expect(detached.swiftTestingTest == false, "a detached task carries no test")
    #expect(detached.runner == TestHost.Runner.ofThisProcess)
    #expect(TestHost.current.swiftTestingTest, "this test runs, so Swift Testing takes its issues")
  }
}
