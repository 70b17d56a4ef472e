import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import XCTest

/// Test support also fails XCTest tests, at the test's own source location.
final class ReportingXCTests: FailureCapturingTestCase {
  func testAnUnimplementedReadFailsAnXCTestNamingTheCoeffectAndTheTestsLine() {
    let environment = Environment.unimplemented()
    let line = #line - 1
    let failures = capturingFailures { _ = environment.clock }

    XCTAssertEqual(failures.count, 1)
    let failure = failures.first
    XCTAssertEqual(failure?.line, line)
    XCTAssertTrue(failure?.file.hasSuffix("ReportingXCTests.swift") == true, failure?.file ?? "")
    XCTAssertTrue(
      failure?.message.contains("Environment.clock was read") == true,
      failure?.message ?? ""
    )
  }

  func testAKeyWithoutATestValueFailsAnXCTest() {
    let environment = Environment.test()
    let line = #line - 1
    let failures = capturingFailures { _ = environment[AnalyticsEndpointKey.self] }

    XCTAssertEqual(failures.map(\.line), [line])
    XCTAssertTrue(failures.first?.message.contains("AnalyticsEndpointKey has no testValue") == true)
  }

  func testATestEnvironmentIsSilentWhenUsedAsDeclared() {
    var environment = Environment.unimplemented()
    environment.clock = FixedClock(Date(timeIntervalSince1970: 0))
    let failures = capturingFailures {
      XCTAssertEqual(environment.clock.now, Date(timeIntervalSince1970: 0))
    }
    XCTAssertEqual(failures, [])
  }
}
