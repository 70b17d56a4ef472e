import Effects
import EffectsTestSupport
import XCTest

/// The XCTest path of a live read: the case fails, and the text names the line that read.
final class LiveInTestXCTests: FailureCapturingTestCase {
  func testALiveReadFailsTheCaseNamingTheCoeffectAndTheReadSite() {
    var minutes = -1
    let failures = capturingFailures { minutes = minutesSinceMidnight() }
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue(minutes >= 0, "the read still answers the live clock")
    let message = failures.first?.message ?? ""
    XCTAssertTrue(message.hasPrefix("failed - Environment.current.clock was read"), message)
    #if os(Linux)
    XCTAssertTrue(
      message.hasSuffix("(Read at EffectsTestSupportTests/LiveInTestTests.swift:\(minutesSinceMidnightReadLine).)"),
      message
    )
    #endif
  }

  func testAnXCTestCaseThatAsksForTheLiveWorldIsSilent() {
    let failures = capturingFailures { withEnvironment(.live) { _ = minutesSinceMidnight() } }
    XCTAssertEqual(failures, [])
  }
}
