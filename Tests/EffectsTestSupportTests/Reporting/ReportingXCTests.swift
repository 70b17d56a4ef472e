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
    XCTAssertEqual(
      failures.map { $0.file.hasSuffix("/Tests/EffectsTestSupportTests/Reporting/ReportingXCTests.swift") },
      [true]
    )
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

/// A timeline assertion fails an XCTest case at its line, with the diff of events.
final class TimelineXCTests: FailureCapturingTestCase {
  @MainActor func testATimelineThatDiffersFailsAnXCTestAtItsLine() async {
    let scheduler = TestScheduler()
    let line = #line + 5
    let failures = await scheduler.withVirtualTime {
      let observer = TestObserver(observing: scheduler.sequence(playing: [.value(1, at: .milliseconds(300))]))
      await scheduler.advance(by: .milliseconds(300))
      defer { observer.cancel() }
      return capturingFailures { observer.assertTimeline([.value(1, at: .milliseconds(200))]) }
    }
    XCTAssertEqual(failures.map(\.line), [line])
    XCTAssertEqual(
      failures.map { $0.file.hasSuffix("/Tests/EffectsTestSupportTests/Reporting/ReportingXCTests.swift") },
      [true]
    )
    XCTAssertEqual(
      failures.map(\.message),
      [
        """
        TestObserver<Int, Error> events differ: got 1, expected 1; first difference at index 0:
          ~ [0] 1 at .milliseconds(200)   (expected)
            [0] 1 at .milliseconds(300)   (actual)
        The expected timeline has no end: it checks the events so far, and that the sequence has not ended yet.
        """
      ]
    )
  }
}
