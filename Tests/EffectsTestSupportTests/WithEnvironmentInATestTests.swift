import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

/// In a test that set no environment, the closure form of `withEnvironment` changes a fresh
/// `Environment.test()`, as the `.environment { … }` trait's closure form does: a test translated
/// from one to the other gets the same world, not the live one with one field swapped.
@Suite struct WithEnvironmentInATestTests {
  @Test func theClosureFormStartsFromATestEnvironment() {
    let (read, issues) = withCapturedIssues {
      withEnvironment({ $0.locale = Locale(identifier: "fr_FR") }) {
        (Environment.current.scheduler is TestScheduler, Environment.current.locale.identifier)
      }
    }
    #expect(issues == [], "no live read: the fields it did not set are test doubles")
    #expect(read.0)
    #expect(read.1 == "fr_FR")
  }

  @Test func whatItsTestEnvironmentLacksIsReportedNamingTheLineOfWithEnvironment() {
    let line = #line + 2
    let issues = withCapturedIssues {
      withEnvironment({ $0.locale = Locale(identifier: "fr_FR") }) {
        _ = Environment.current[AnalyticsEndpointKey.self]
      }
    }.issues
    #expect(
      issues.map(\.message) == [
        """
        Environment[AnalyticsEndpointKey.self] answered AnalyticsEndpointKey.liveValue in the test environment made \
        by withEnvironment({ … }) at EffectsTestSupportTests/WithEnvironmentInATestTests.swift:\(line), because \
        AnalyticsEndpointKey has no testValue. Declare `static let testValue` on AnalyticsEndpointKey, or set \
        environment[AnalyticsEndpointKey.self] (or the property that wraps it) in the test.
        """
      ]
    )
  }

  @Test func insideAnEnvironmentTheTestSetItChangesThatOne() {
    let date = Date(timeIntervalSince1970: 86_400)
    let now = withEnvironment(.test(now: date)) {
      withEnvironment({ $0.locale = Locale(identifier: "fr_FR") }) { Environment.current.clock.now }
    }
    #expect(now == date)
  }

  @Test func aTestThatWantsTheLiveWorldSaysSo() {
    let (live, issues) = withCapturedIssues {
      withEnvironment({
        $0 = .live
        $0.locale = Locale(identifier: "fr_FR")
      }) { Environment.current.scheduler is DispatchScheduler }
    }
    #expect(live)
    #expect(issues == [])
  }

  @Test func withNoTestOnTheTaskItChangesTheRoot() {
    let host = TestHost(runner: .swiftTesting, swiftTestingTest: false, xcTestCase: false)
    let live = withTestHost(host) {
      withEnvironment({ $0.locale = Locale(identifier: "fr_FR") }) {
        Environment.current.scheduler is DispatchScheduler
      }
    }.result
    #expect(live)
  }
}
