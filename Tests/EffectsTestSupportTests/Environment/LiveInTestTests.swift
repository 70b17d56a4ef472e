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
    "network": (#line, { Environment.current.network }),
    "calendar": (#line, { Environment.current.calendar }),
    "locale": (#line, { Environment.current.locale }),
    "timeZone": (#line, { Environment.current.timeZone }),
    "continuousClock": (#line, { Environment.current.continuousClock }),
    "uuid": (#line, { Environment.current.uuid }),
    "random": (#line, { Environment.current.random }),
  ]

  /// The type each live field answers.
  static let liveTypes: [String: String] = [
    "clock": "SystemClock", "bundle": "Bundle", "fileReader": "DiskFileSystem", "fileWriter": "DiskFileSystem",
    "defaults": "UserDefaultsStore", "scheduler": "DispatchScheduler", "console": "StandardOutput",
    "events": "UnconfiguredEvents", "network": "URLSessionNetwork", "calendar": "Calendar", "locale": "Locale",
    "timeZone": "TimeZone", "continuousClock": "DurationClock", "uuid": "SystemUUIDs", "random": "RandomSource",
  ]

  /// What a read of `field` of the live root in a test reports, when the live value is a
  /// `typeName`.
  static func liveRead(of field: String, answering typeName: String, line: Int) -> CapturedIssue {
    CapturedIssue(
      """
      Environment.current.\(field) was read in a test, but no environment was set for this test, so \
      it answered the live \(typeName). A test should control what it reads and where its effects go: run it with \
      @Test(.environment(.test())) or inside withEnvironment(.test()) { … }, or set environment.\(field). To use \
      the real world on purpose (an integration test), say so: withEnvironment(.live) { … } or \
      @Test(.environment(.live)).
      """,
      line: line
    )
  }

  @Test(arguments: readers.keys.sorted())
  func readingAFieldOfTheLiveRootReportsItAtTheReadAndAnswersTheLiveValue(_ field: String) throws {
    let reader = try #require(Self.readers[field])
    let typeName = try #require(Self.liveTypes[field])
    var value: Any?
    let issues = withCapturedIssues {
      value = reader.read()
    }.issues
    expectReadIssues(issues, [Self.liveRead(of: field, answering: typeName, line: reader.line)])
    #expect(value.map { "\(type(of: $0))" } == typeName)
  }

  @Test func theReadInsideTheCodeUnderTestIsWhereTheIssuePoints() {
    let issues = withCapturedIssues {
      _ = minutesSinceMidnight()
    }.issues
    expectReadIssues(
      issues,
      [Self.liveRead(of: "clock", answering: "SystemClock", line: minutesSinceMidnightReadLine)]
    )
  }

  /// Finding the read site walks the stack through Swift Testing's own frames: inside a
  /// `withKnownIssue` with a comment, a fast unwinder dereferenced a null frame pointer there.
  @Test func aReadInsideAKnownIssueWithACommentIsReportedAndNothingCrashes() {
    let line = #line + 2
    withKnownIssue("the test reads the live clock on purpose") {
      _ = Environment.current.clock.now
    } matching: { issue in
      issue.message.hasPrefix("Environment.current.clock was read")
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
    let issues = withCapturedIssues {
      #expect(Environment.current.apiClient.fetchName() == "live")
    }.issues
    expectReadIssues(
      issues,
      [
        CapturedIssue(
          """
          Environment.current[APIClientKey.self] was read in a test, but no environment was set \
          for this test, so it answered APIClientKey.liveValue. A test should control what it reads and where its \
          effects go: run it with @Test(.environment(.test())) or inside withEnvironment(.test()) { … }, or set \
          environment[APIClientKey.self] (or the property that wraps it). To use the real world on purpose (an integration test), say so: \
          withEnvironment(.live) { … } or @Test(.environment(.live)).
          """,
          line: line
        )
      ]
    )
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

  /// The closure form, in a test that set no environment, changes a fresh `Environment.test()`
  /// (as the trait's does), not the live root: the fields it does not set are test doubles.
  @Test func aFieldSetWithTheClosureFormIsSetOnATestEnvironment() {
    let date = Date(timeIntervalSince1970: 3_600)
    withEnvironment({ $0.clock = FixedClock(date) }) {
      #expect(minutesSinceMidnight() == 60)
      let (locale, issues) = withCapturedIssues { Environment.current.locale.identifier }
      #expect(issues == [])
      #expect(locale == "en_US_POSIX")
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
    let line = #line + 3
    let issues = try withCapturedIssues {
      // Removing a path where nothing exists: harmless on the real disk it reaches.
      try Interpreter.live.perform([.removeFile(path: "/swift-effects-LiveInTestTests/never-written")])
    }.issues
    expectReadIssues(issues, [Self.liveRead(of: "fileWriter", answering: "DiskFileSystem", line: line)])
  }

  @Test func readingBackFromAnEnvironmentThatKeepsNothingReportsAndAnswersNothing() {
    let line = #line + 2
    let issues = withCapturedIssues {
      #expect(Environment.live.printedLines.isEmpty)
      #expect(Environment.live.trackedEvents.isEmpty)
    }.issues
    expectReadIssues(
      issues,
      [
        CapturedIssue(
          """
          environment.console (StandardOutput) keeps nothing to read back. Read back from an environment made by \
          Environment.test(), or set environment.console = InMemoryConsole() first.
          """,
          line: line
        ),
        CapturedIssue(
          """
          environment.events (UnconfiguredEvents) keeps nothing to read back. Read back from an environment made \
          by Environment.test(), or set environment.events = InMemoryEventLog() first.
          """,
          line: line + 1
        ),
      ]
    )
  }
}

/// A read written in the test target's own extension of a library type: the mangling files the
/// extension under the library's module, and the read is still placed at its line.
extension InMemoryConsole {
  fileprivate static let readLine = #line + 1
  fileprivate func minutesFromTheLiveClock() -> Date { Environment.current.clock.now }
}

@Suite struct ReadInAnExtensionOfALibraryTypeTests {
  @Test func theReadIsPlacedInTheExtension() {
    let issues = withCapturedIssues { _ = InMemoryConsole().minutesFromTheLiveClock() }.issues
    #expect(issues.map(\.message) == [LiveInTestTests.liveRead(of: "clock", answering: "SystemClock", line: 0).message])
    if readSitesAreFound {
      #expect(issues.map(\.line) == [InMemoryConsole.readLine])
    }
  }
}

/// The live root kept from before a scope opened, and read inside it: the report says why the
/// scope's test environment did not answer.
@Suite struct LiveRootKeptFromBeforeAScopeTests {
  @Test func aReadOfTheKeptRootInsideAScopeSaysSo() async {
    let kept = Environment.current  // no environment set for this test: the live root
    let line = #line + 3
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        _ = kept.clock
      }
    }.issues
    #expect(
      issues.map(\.message) == [
        LiveInTestTests.liveRead(of: "clock", answering: "SystemClock", line: line).message
          + """
           The read is inside a withVirtualTime scope, which has a test environment: the code read an environment \
          it kept from before the scope opened (taken as a default in setUp, or stored in a static). Make it inside \
          the scope, or hand it the scope's environment.
          """
      ]
    )
    if readSitesAreFound { #expect(issues.map(\.line) == [line]) }
  }
}
