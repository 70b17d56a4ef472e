import Effects
import EffectsTestSupport
import Foundation
import XCTest

/// Test support also fails XCTest tests, at the test's own source location.
final class ReportingXCTests: FailureCapturingTestCase {
  func testAnUnimplementedReadFailsAnXCTestNamingTheCoeffectAndTheTestsLine() {
    let environment = Environment.unimplemented()
    let line = #line - 1
    _ = environment.clock

    XCTAssertEqual(capturedFailures.count, 1)
    let failure = capturedFailures.first
    XCTAssertEqual(failure?.line, line)
    XCTAssertTrue(failure?.file.hasSuffix("ReportingXCTests.swift") == true, failure?.file ?? "")
    XCTAssertTrue(
      failure?.message.contains("Unimplemented co-effect: Environment.clock was read") == true,
      failure?.message ?? ""
    )
  }

  func testAKeyWithoutATestValueFailsAnXCTest() {
    let environment = Environment.test()
    let line = #line - 1
    _ = environment[AnalyticsEndpointKey.self]

    XCTAssertEqual(capturedFailures.map(\.line), [line])
    XCTAssertTrue(capturedFailures.first?.message.contains("AnalyticsEndpointKey has no testValue") == true)
  }

  func testATestEnvironmentIsSilentWhenUsedAsDeclared() {
    var environment = Environment.unimplemented()
    environment.clock = FixedClock(Date(timeIntervalSince1970: 0))
    XCTAssertEqual(environment.clock.now, Date(timeIntervalSince1970: 0))
    XCTAssertEqual(capturedFailures, [])
  }
}
