import Effects
import EffectsTestHelpers
import EffectsTestSupport
import XCTest

/// The XCTest path of a live read: the case fails at the line that read, as in Swift Testing.
final class LiveInTestXCTests: FailureCapturingTestCase {
  func testALiveReadFailsTheCaseAtTheLineThatRead() throws {
    try XCTSkipUnless(readSitesAreFound, "this platform does not find read sites on the stack")
    var minutes = -1
    let failures = capturingFailures { minutes = minutesSinceMidnight() }
    XCTAssertTrue(minutes >= 0, "the read still answers the live clock")
    let expected = LiveInTestTests.liveRead(of: "clock", answering: "SystemClock", line: minutesSinceMidnightReadLine)
    XCTAssertEqual(failures.map(\.message), [expected.message])
    XCTAssertEqual(failures.map(\.line), [minutesSinceMidnightReadLine])
    XCTAssertEqual(
      failures.map { $0.file.hasSuffix("/Tests/EffectsTestSupportTests/Environment/LiveInTestTests.swift") },
      [true]
    )
  }

  func testAnXCTestCaseThatAsksForTheLiveWorldIsSilent() {
    let failures = capturingFailures { withEnvironment(.live) { _ = minutesSinceMidnight() } }
    XCTAssertEqual(failures, [])
  }
}
