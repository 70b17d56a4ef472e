import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

@Suite struct UnimplementedEnvironmentTests {
  /// Reads one field of an environment, by name, and the line that reads it.
  static let readers: [String: (line: Int, read: @Sendable (Environment) -> Void)] = [
    "clock": (#line, { _ = $0.clock }),
    "bundle": (#line, { _ = $0.bundle }),
    "fileReader": (#line, { _ = $0.fileReader }),
    "fileWriter": (#line, { _ = $0.fileWriter }),
    "defaults": (#line, { _ = $0.defaults }),
    "scheduler": (#line, { _ = $0.scheduler }),
    "console": (#line, { _ = $0.console }),
    "events": (#line, { _ = $0.events }),
    "network": (#line, { _ = $0.network }),
    "calendar": (#line, { _ = $0.calendar }),
    "locale": (#line, { _ = $0.locale }),
    "timeZone": (#line, { _ = $0.timeZone }),
    "continuousClock": (#line, { _ = $0.continuousClock }),
    "uuid": (#line, { _ = $0.uuid }),
    "random": (#line, { _ = $0.random }),
  ]

  @Test(arguments: readers.keys.sorted())
  func readingAFieldReportsItsNameAtTheLineThatReadIt(_ field: String) throws {
    let reader = try #require(Self.readers[field])
    let environment = Environment.unimplemented()
    let made = #line - 1
    let issues = withCapturedIssues {
      reader.read(environment)
    }.issues
    expectReadIssues(
      issues,
      [
        CapturedIssue(
          """
          Environment.\(field) was read, but the environment made by \
          Environment.unimplemented() at EffectsTestSupportTests/UnimplementedEnvironmentTests.swift:\(made) does \
          not provide it. Set environment.\(field) in the test to the value the code under test should see.
          """,
          line: reader.line
        )
      ]
    )
  }

  @Test func eachReadReportsOnce() {
    let environment = Environment.unimplemented()
    let made = #line - 1
    let line = #line + 2
    let issues = withCapturedIssues {
      _ = environment.clock.now
      _ = environment.locale
    }.issues
    expectReadIssues(
      issues,
      ["clock", "locale"].enumerated().map { offset, field in
        CapturedIssue(
          """
          Environment.\(field) was read, but the environment made by \
          Environment.unimplemented() at EffectsTestSupportTests/UnimplementedEnvironmentTests.swift:\(made) does \
          not provide it. Set environment.\(field) in the test to the value the code under test should see.
          """,
          line: line + offset
        )
      }
    )
  }

  @Test func assignedFieldsAreSilentAndTheOthersStillReport() {
    var environment = Environment.unimplemented()
    let made = #line - 1
    environment.clock = FixedClock(Date(timeIntervalSince1970: 7))
    environment.locale = Locale(identifier: "en_GB")
    #expect(environment.clock.now == Date(timeIntervalSince1970: 7))
    #expect(environment.locale.identifier == "en_GB")
    let line = #line + 2
    let issues = withCapturedIssues {
      _ = environment.timeZone
    }.issues
    expectReadIssues(
      issues,
      [
        CapturedIssue(
          """
          Environment.timeZone was read, but the environment made by \
          Environment.unimplemented() at EffectsTestSupportTests/UnimplementedEnvironmentTests.swift:\(made) does \
          not provide it. Set environment.timeZone in the test to the value the code under test should see.
          """,
          line: line
        )
      ]
    )
  }

  @Test func everyFieldAssignedMeansNothingReports() {
    var environment = Environment.unimplemented()
    environment.clock = FixedClock(Date(timeIntervalSince1970: 0))
    environment.bundle = Environment.test().bundle
    environment.fileReader = InMemoryFileSystem()
    environment.defaults = InMemoryDefaults()
    environment.scheduler = InlineScheduler()
    environment.calendar = Calendar(identifier: .gregorian)
    environment.locale = Locale(identifier: "en_US_POSIX")
    environment.timeZone = TimeZone(secondsFromGMT: 0)!
    environment.continuousClock = DurationClock(ContinuousClock())
    environment.uuid = IncrementingUUIDs()
    environment.random = RandomSource(seed: 1)
    _ = environment.continuousClock
    _ = environment.uuid
    _ = environment.random
    _ = environment.clock
    _ = environment.bundle
    _ = environment.fileReader
    _ = environment.defaults
    _ = environment.scheduler
    _ = environment.calendar
    _ = environment.locale
    _ = environment.timeZone
  }

  @Test func readingAnAppKeyReportsItsNameEvenWhenTheKeyHasATestValue() {
    let environment = Environment.unimplemented()
    let made = #line - 1
    let line = #line + 2
    let issues = withCapturedIssues {
      #expect(environment.apiClient.fetchName() == "mock", "the placeholder is the test value, never the live one")
    }.issues
    expectReadIssues(
      issues,
      [
        CapturedIssue(
          """
          Environment[APIClientKey.self] was read, but the environment made by \
          Environment.unimplemented() at EffectsTestSupportTests/UnimplementedEnvironmentTests.swift:\(made) does \
          not provide it. Set environment[APIClientKey.self] (or the property that wraps it) in the test to the \
          value the code under test should see.
          """,
          line: line
        )
      ]
    )
  }

  @Test func anAppKeySetByTheTestIsSilent() {
    var environment = Environment.unimplemented()
    environment.apiClient = MockAPIClient(name: "declared")
    #expect(environment.apiClient.fetchName() == "declared")
  }

  @Test func copiesKeepReportingUntilAssigned() {
    let environment = Environment.unimplemented()
    var copy = environment
    copy.clock = FixedClock(Date(timeIntervalSince1970: 0))
    _ = copy.clock
    let issues = withCapturedIssues {
      _ = environment.clock
    }.issues
    #expect(issues.count == 1)
  }
}
