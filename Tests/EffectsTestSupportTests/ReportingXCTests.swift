import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import XCTest

/// Test support also fails XCTest tests, at the line that caused the failure, as in Swift Testing:
/// the read, where the stack says; else the line that made the environment.
final class ReportingXCTests: FailureCapturingTestCase {
  func testAnUnimplementedReadFailsAnXCTestAtTheLineThatRead() {
    let environment = Environment.unimplemented()
    let madeAt = #line - 1
    let readAt = #line + 1
    let failures = capturingFailures { _ = environment.clock }

    XCTAssertEqual(failures.map(\.line), [readSitesAreFound ? readAt : madeAt])
    XCTAssertEqual(failures.map { $0.file.hasSuffix("/Tests/EffectsTestSupportTests/ReportingXCTests.swift") }, [true])
    XCTAssertEqual(
      failures.map(\.message),
      [
        """
        Environment.clock was read, but the environment made by Environment.unimplemented() at \
        EffectsTestSupportTests/ReportingXCTests.swift:\(madeAt) does not provide it. Set environment.clock in the \
        test to the value the code under test should see.
        """
      ]
    )
  }

  func testAKeyWithoutATestValueFailsAnXCTestAtTheLineThatRead() {
    let environment = Environment.test()
    let madeAt = #line - 1
    let readAt = #line + 1
    let failures = capturingFailures { _ = environment[AnalyticsEndpointKey.self] }

    XCTAssertEqual(failures.map(\.line), [readSitesAreFound ? readAt : madeAt])
    XCTAssertTrue(failures.first?.message.contains("AnalyticsEndpointKey has no testValue") == true)
  }

  /// In a case that set no environment, the closure form changes a fresh `Environment.test()`,
  /// as the trait's closure form does in Swift Testing.
  func testTheClosureFormOfWithEnvironmentStartsFromATestEnvironment() {
    var readsATestScheduler = false
    let failures = capturingFailures {
      withEnvironment({ $0.locale = Locale(identifier: "fr_FR") }) {
        readsATestScheduler = Environment.current.scheduler is TestScheduler
      }
    }
    XCTAssertEqual(failures, [])
    XCTAssertTrue(readsATestScheduler)
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
