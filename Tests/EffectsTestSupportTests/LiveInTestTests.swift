import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

/// A function under test that reads the clock through `Environment.current`, as app code does.
func minutesSinceMidnight(environment: Environment = .current) -> Int {
  let now = environment.clock.now
  return Int(now.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400) / 60)
}

let minutesSinceMidnightReadLine = 9

/// A test that reads `Environment.current` without setting an environment reads the live world:
/// each read reports, names the co-effect and the fix, and still answers the live value.
@Suite struct LiveInTestTests {
  /// Reads one field of `Environment.current`, by name, at the line given.
  static let readers: [String: (line: Int, read: @Sendable () -> Any)] = [
    "clock": (#line, { Environment.current.clock }),
    "bundle": (#line, { Environment.current.bundle }),
    "fileReader": (#line, { Environment.current.fileReader }),
    "fileWriter": (#line, { Environment.current.fileWriter }),
    "defaults": (#line, { Environment.current.defaults }),
    "scheduler": (#line, { Environment.current.scheduler }),
    "console": (#line, { Environment.current.console }),
    "events": (#line, { Environment.current.events }),
    "calendar": (#line, { Environment.current.calendar }),
    "locale": (#line, { Environment.current.locale }),
    "timeZone": (#line, { Environment.current.timeZone }),
  ]

  /// The type each live field answers.
  static let liveTypes: [String: String] = [
    "clock": "SystemClock", "fileReader": "DiskFileSystem", "fileWriter": "DiskFileSystem",
    "defaults": "UserDefaultsStore", "scheduler": "DispatchScheduler", "console": "StandardOutput",
  ]

  @Test(arguments: readers.keys.sorted())
  func readingAFieldOfTheLiveRootReportsItAtTheReadAndAnswersTheLiveValue(_ field: String) throws {
    let reader = try #require(Self.readers[field])
    let issues = IssueCounter()
    var value: Any?
    expectIssues {
      value = reader.read()
    } matching: { issue in
      issues.record(issue.message)
        && issue.message.hasPrefix(
          "Live co-effect in a test: Environment.current.\(field) was read, but no environment was set for this test, "
            + "so it answered the live "
        )
        && issue.message.contains("run it with @Test(.environment(.test())) or inside withEnvironment(.test()) { … }")
        && issue.message.contains("or set environment.\(field).")
        && issue.message.contains("say so: withEnvironment(.live) { … } or @Test(.environment(.live)).")
        && issue.fileID == "EffectsTestSupportTests/LiveInTestTests.swift"
        && (!readSitesAreFound || issue.line == reader.line)
    }
    #expect(issues.recorded.count == 1)
    if let typeName = Self.liveTypes[field] {
      #expect(issues.recorded.first?.contains("so it answered the live \(typeName).") == true)
      #expect(value.map { "\(type(of: $0))" } == typeName)
    }
  }

  @Test func theReadInsideTheCodeUnderTestIsWhereTheIssuePoints() {
    expectIssues {
      _ = minutesSinceMidnight()
    } matching: { issue in
      issue.message.hasPrefix("Live co-effect in a test: Environment.current.clock was read")
        && issue.fileID == "EffectsTestSupportTests/LiveInTestTests.swift"
        && (!readSitesAreFound || issue.line == minutesSinceMidnightReadLine)
    }
  }

  /// Finding the read site walks the stack through Swift Testing's own frames: inside a
  /// `withKnownIssue` with a comment, a fast unwinder dereferenced a null frame pointer there.
  @Test func aReadInsideAKnownIssueWithACommentIsReportedAndNothingCrashes() {
    let line = #line + 2
    withKnownIssue("the test reads the live clock on purpose") {
      _ = Environment.current.clock.now
    } matching: { issue in
      issue.message.hasPrefix("Live co-effect in a test: Environment.current.clock was read")
        && (!readSitesAreFound || issue.sourceLocation?.line == line)
    }
    withKnownIssue("an unimplemented read, with a comment", isIntermittent: true) {
      _ = Environment.unimplemented().locale
    }
  }

  @MainActor @Test func aReadInsideAKnownIssueWithACommentOnTheMainActorIsReportedToo() {
    withKnownIssue("on the main actor") {
      _ = Environment.current.clock.now
    }
  }

  @Test func anAppKeyReadFromTheLiveRootReportsAndAnswersItsLiveValue() {
    let line = #line + 2
    expectIssues {
      #expect(Environment.current.apiClient.fetchName() == "live")
    } matching: { issue in
      issue.message
        == "Live co-effect in a test: Environment.current[APIClientKey.self] was read, but no environment was set "
        + "for this test, so it answered APIClientKey.liveValue. A test should control what it reads and where its "
        + "effects go: run it with @Test(.environment(.test())) or inside withEnvironment(.test()) { … }, or set "
        + "environment[APIClientKey.self]. To use the real world on purpose (an integration test), say so: "
        + "withEnvironment(.live) { … } or @Test(.environment(.live))."
        && (!readSitesAreFound || issue.line == line)
    }
  }

  @Test func askingForTheLiveWorldOnPurposeIsSilent() {
    withEnvironment(.live) {
      #expect(Environment.current.clock is SystemClock)
      #expect(Environment.current.fileWriter is DiskFileSystem)
      #expect(Environment.current.apiClient.fetchName() == "live")
    }
  }

  @Test(.environment(.live))
  func theLiveTraitIsSilentToo() {
    #expect(minutesSinceMidnight() >= 0)
  }

  @Test func aFieldSetOnTopOfTheRootIsSilentAndTheOthersStillReport() {
    let date = Date(timeIntervalSince1970: 3_600)
    withEnvironment({ $0.clock = FixedClock(date) }) {
      #expect(minutesSinceMidnight() == 60)
      expectIssues {
        _ = Environment.current.locale
      } matching: { issue in
        issue.message.hasPrefix("Live co-effect in a test: Environment.current.locale was read")
      }
    }
  }

  @Test func aTestEnvironmentIsSilent() {
    withEnvironment(.test()) {
      #expect(minutesSinceMidnight() == 0)
      _ = Environment.current.fileWriter
      _ = Environment.current.console
      _ = Environment.current.events
    }
  }

  @Test func theLiveInterpreterWithNoEnvironmentReportsTheTargetItReaches() throws {
    try expectIssues {
      // Removing a path where nothing exists: harmless on the real disk it reaches.
      try Interpreter.live().perform([.removeFile(path: "/swift-effects-LiveInTestTests/never-written")])
    } matching: { issue in
      issue.message.hasPrefix("Live co-effect in a test: Environment.current.fileWriter was read")
    }
  }

  @Test func readingBackFromAnEnvironmentThatKeepsNothingReportsAndAnswersNothing() {
    let issues = IssueCounter()
    expectIssues {
      #expect(Environment.live.printedLines.isEmpty)
      #expect(Environment.live.trackedEvents.isEmpty)
    } matching: { issue in
      issues.record(issue.message)
    }
    #expect(
      issues.recorded == [
        "environment.console (StandardOutput) keeps nothing to read back. Read back from an environment "
          + "made by Environment.test(), or set environment.console = InMemoryConsole() first.",
        "environment.events (UnconfiguredEvents) keeps nothing to read back. Read back from an environment "
          + "made by Environment.test(), or set environment.events = InMemoryEventLog() first.",
      ]
    )
  }
}
