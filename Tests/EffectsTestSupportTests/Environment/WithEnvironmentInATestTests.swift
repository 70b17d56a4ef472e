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

/// A sleep on a scheduler that nothing will advance — outside any scope, on the environment the
/// closure form made — is turned from a hang into a failure, after a real-time limit.
@Suite struct UnattendedSleepTests {
  @Test func aSleepOnAnEnvironmentMadeOutsideAScopeIsWokenAndReportedInsteadOfHanging() async {
    let line = #line + 2
    let (outcome, issues) = await withCapturedIssues {
      await withEnvironment({ $0.locale = Locale(identifier: "fr_FR") }) {
        do {
          try await Environment.current.continuousClock.sleep(for: .seconds(1))
          return "woke"
        } catch {
          return "\(type(of: error))"
        }
      }
    }
    #expect(outcome == "CancellationError")
    #expect(
      issues == [
        CapturedIssue(
          """
          A task slept for .seconds(5) of real time on a TestScheduler that nothing advanced, outside any \
          virtual-time scope — here, or on the clock of the environment made here — so nothing would ever wake it; it \
          was woken with CancellationError. Run the code in a virtual-time scope — @Test(.virtualTime), or withVirtualTime { scheduler in … } — and advance its \
          scheduler: an environment made outside a scope (Environment.test(), or withEnvironment({ … }) in a test) has \
          a scheduler that only a scope, or an advance of your own, moves.
          """,
          line: line
        )
      ]
    )
  }
}
