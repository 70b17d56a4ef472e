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
