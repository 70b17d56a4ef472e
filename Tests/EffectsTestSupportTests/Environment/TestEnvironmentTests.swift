import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

@Suite struct TestEnvironmentTests {
  @Test func everyCoeffectIsDeterministic() throws {
    let now = Date(timeIntervalSince1970: 1_000_000)
    let environment = Environment.test(now: now)
    #expect(environment.clock.now == now)
    #expect((environment.scheduler as? TestScheduler)?.now == now)
    #expect(environment.bundle.path(forResource: "number", ofType: "txt") == nil)
    #expect((environment.fileReader as? InMemoryFileSystem)?.files == [:])
    #expect((environment.defaults as? InMemoryDefaults)?.values == [:])
    #expect(environment.timeZone.identifier == "UTC" || environment.timeZone.identifier == "GMT")
    #expect(environment.timeZone.secondsFromGMT() == 0)
    #expect(environment.locale.identifier == "en_US_POSIX")
    #expect(environment.calendar.identifier == .gregorian)
    #expect(environment.calendar.timeZone.secondsFromGMT() == 0)
  }

  @Test func eachCallMakesFreshDoubles() {
    let first = Environment.test()
    let second = Environment.test()
    first.defaults.set("only in the first", for: "k")
    #expect(second.defaults.value(for: "k") == nil)
    #expect((first.fileReader as? InMemoryFileSystem) !== (second.fileReader as? InMemoryFileSystem))
  }

  @Test func clockAndSchedulerAreOneFreshTestScheduler() throws {
    let environment = Environment.test(now: Date(timeIntervalSince1970: 0))
    let scheduler = try #require(environment.scheduler as? TestScheduler)
    #expect((environment.clock as? TestScheduler) === scheduler)
    #expect((Environment.test().scheduler as? TestScheduler) !== scheduler)
    scheduler.advanceSynchronously(by: .seconds(5))
    #expect(environment.clock.now == Date(timeIntervalSince1970: 5))
  }

  @Test func aGivenSchedulerIsBothClockAndScheduler() {
    let scheduler = TestScheduler()
    let environment = Environment.test(scheduler: scheduler)
    #expect((environment.clock as? TestScheduler) === scheduler)
    #expect((environment.scheduler as? TestScheduler) === scheduler)
  }

  @Test func theDefaultInstantIsFixed() {
    #expect(Environment.test().clock.now == Date(timeIntervalSinceReferenceDate: 0))
  }

  @Test func aKeyWithATestValueAnswersIt() {
    #expect(Environment.test().apiClient.fetchName() == "mock")
  }

  @Test func aKeySetByTheTestAnswersThatValueWithoutReporting() {
    var environment = Environment.test()
    environment[AnalyticsEndpointKey.self] = "http://localhost"
    environment.apiClient = MockAPIClient(name: "set")
    #expect(environment[AnalyticsEndpointKey.self] == "http://localhost")
    #expect(environment.apiClient.fetchName() == "set")
  }

  @Test func aKeyWithoutATestValueReportsItsNameAtTheLineThatReadIt() {
    let environment = Environment.test()
    let made = #line - 1
    let line = #line + 2
    let issues = withCapturedIssues {
      #expect(environment[AnalyticsEndpointKey.self] == "https://analytics.example.com")
    }.issues
    expectReadIssues(
      issues,
      [
        CapturedIssue(
          """
          Environment[AnalyticsEndpointKey.self] answered AnalyticsEndpointKey.liveValue in the test environment \
          made by Environment.test() at EffectsTestSupportTests/TestEnvironmentTests.swift:\(made), because \
          AnalyticsEndpointKey has no testValue. Declare `static let testValue` on AnalyticsEndpointKey, or set \
          environment[AnalyticsEndpointKey.self] (or the property that wraps it) in the test.
          """,
          line: line
        )
      ]
    )
  }

  @Test func aKeyWithoutATestValueIsFineOutsideTestEnvironments() {
    #expect(Environment.live[AnalyticsEndpointKey.self] == "https://analytics.example.com")
  }
}
