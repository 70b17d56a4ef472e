import EffectsTestSupport
import XCTest

final class TestSchedulerXCTests: FailureCapturingTestCase {
  func testAssertNoPendingWorkFailsAnXCTestTestAtItsLine() {
    let scheduler = TestScheduler()
    scheduler.schedule(after: .seconds(1)) {}
    let scheduledLine = #line - 1
    var assertLine = 0
    let failures = capturingFailures {
      scheduler.assertNoPendingWork()
      assertLine = #line - 1
    }
    XCTAssertEqual(failures.count, 1)
    let failure = failures.first
    XCTAssertEqual(failure?.line, assertLine)
    XCTAssertTrue(failure?.file.hasSuffix("TestSchedulerXCTests.swift") == true)
    XCTAssertTrue(
      failure?.message.contains(
        "work due at .seconds(1), scheduled at EffectsTestSupportTests/TestSchedulerXCTests.swift:\(scheduledLine)"
      ) == true,
      failure?.message ?? "no failure"
    )
  }

  func testAssertNoPendingWorkPassesWhenNothingIsLeft() {
    let scheduler = TestScheduler()
    scheduler.schedule(after: .seconds(1)) {}
    scheduler.advanceSynchronously(by: .seconds(1))
    let failures = capturingFailures {
      scheduler.assertNoPendingWork()
    }
    XCTAssertEqual(failures, [])
  }
}
