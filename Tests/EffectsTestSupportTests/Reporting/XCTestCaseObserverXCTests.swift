import Effects
@testable import EffectsTestSupport
import XCTest

/// How test support knows that an XCTest case runs: XCTest's observation center, on Apple's XCTest
/// and swift-corelibs-xctest alike.
final class XCTestCaseObserverXCTests: FailureCapturingTestCase {
  /// An observer follows what XCTest says, from "nothing yet" (a case may be running, unseen).
  func testAnObserverFollowsEachCaseFromItsStartToItsEnd() {
    let observer = XCTestCaseObserver()
    XCTAssertEqual(observer.phase, .unknown, "registered during a case, it has not seen that case start")
    observer.testCaseDidFinish(self)
    XCTAssertEqual(observer.phase, .idle, "the case running when it was registered has finished")
    observer.testCaseWillStart(self)
    XCTAssertEqual(observer.phase, .running(ObjectIdentifier(self)))
    observer.testCaseDidFinish(self)
    XCTAssertEqual(observer.phase, .idle)
    observer.testBundleDidFinish(Bundle.main)
    XCTAssertEqual(observer.phase, .idle, "after the last case")
  }

  /// Registered in the middle of a run, the next thing XCTest says may be that a suite starts: then
  /// no case was running.
  func testASuiteStartingMeansNoCaseRuns() {
    let observer = XCTestCaseObserver()
    observer.testSuiteWillStart(XCTestSuite(name: "Next"))
    XCTAssertEqual(observer.phase, .idle)
  }

  /// This process's observer, asked from inside this case, saw this case start: it was registered
  /// when the test binary loaded (a Swift 6.3 compiler), before XCTest started any case. So every
  /// failure is recorded on the case that runs, at its place.
  func testInsideACaseTheObserverSawThisCaseStartAndAFailureIsThisCasesAtItsLine() {
    let host = TestHost.current
    XCTAssertEqual(host, TestHost(runner: .xcTest, swiftTestingTest: false, xcTestCase: true))
    #if compiler(>=6.3)
    XCTAssertEqual(XCTestCaseObserver.shared.phase, .running(ObjectIdentifier(self)))
    XCTAssertTrue(XCTestCaseObserver.shared.currentCase === self)
    #else
    let phase = XCTestCaseObserver.shared.phase
    XCTAssertTrue(phase == .unknown || phase == .running(ObjectIdentifier(self)), "\(phase)")
    #endif

    let spy = Spy<String, Void>("tokenStore.save")
    let line = #line + 1
    let failures = capturingFailures { spy.assertCalls(count: 1) }
    XCTAssertEqual(failures.map(\.line), [line])
    XCTAssertTrue(
      failures.first?.message.hasSuffix(#"Spy "tokenStore.save" was called 0 times, expected 1 time."#) == true
    )
  }
}

/// Work a case leaves running can fail after the case has ended. XCTest records a failure only on
/// the case running then, or on none: the report names the case that started the work.
final class LateReportXCTests: XCTestCase {
  /// With no case running, the report is a line on standard error that names the case.
  func testAReportFromWorkACaseLeftRunningNamesThatCase() async {
    let scheduler = TestScheduler()
    let (stream, input) = AsyncStream<Void>.makeStream()
    let spy = Spy<Void, Void>("save")
    let line = #line + 5
    let sync = await scheduler.withVirtualTime(leftoverWork: .expected) {
      Task {
        for await _ in stream {}
        return withTestHost(TestHost(runner: .xcTest, swiftTestingTest: false, xcTestCase: false)) {
          spy.assertCalls(count: 1)
        }.reports
      }
    }
    // The case ends, as XCTest says it does; the work it left fails afterwards.
    XCTestCaseObserver.shared.testCaseDidFinish(self)
    input.finish()
    let reports = await sync.value
    XCTestCaseObserver.shared.testCaseWillStart(self)
    XCTAssertEqual(
      reports,
      [
        RoutedReport(
          .standardError,
          """
          swift-effects: EffectsTestSupportTests/XCTestCaseObserverXCTests.swift:\(line): Spy "save" was called 0 \
          times, expected 1 time. (Raised by work that \(name) started and left running: it came after that test had \
          ended.) [ReportKind.assertionFailed]
          """
        )
      ]
    )
  }

  /// The case that started the work, still running, gets the report as it is.
  func testAReportFromWorkOfTheRunningCaseSaysNothingMore() async {
    let scheduler = TestScheduler()
    let spy = Spy<Void, Void>("save")
    let line = #line + 4
    let reports = await scheduler.withVirtualTime {
      await Task {
        withTestHost(TestHost(runner: .xcTest, swiftTestingTest: false, xcTestCase: true)) {
          spy.assertCalls(count: 1)
        }.reports
      }.value
    }
    XCTAssertEqual(
      reports,
      [
        RoutedReport(
          .xcTestFailure,
          #"Spy "save" was called 0 times, expected 1 time. [ReportKind.assertionFailed]"#,
          fileID: "EffectsTestSupportTests/XCTestCaseObserverXCTests.swift",
          line: line
        )
      ]
    )
  }
}
