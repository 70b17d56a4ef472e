import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

private let launch = Date(timeIntervalSince1970: 1_234_567)

@Suite struct EnvironmentTraitTests {
  @Test(.environment { $0.clock = FixedClock(launch) })
  func aTestSeesTheEnvironmentItsTraitModified() throws {
    #expect(Environment.current.clock.now == launch)
    let scheduler = try #require(Environment.current.scheduler as? TestScheduler, "the rest is a test environment")
    #expect(scheduler.elapsed == .zero)
    #expect(Environment.current.fileReader is InMemoryFileSystem)
    #expect(Environment.current.fileWriter is InMemoryFileSystem)
    #expect(Environment.current.defaults is InMemoryDefaults)
    #expect(Environment.current.console is InMemoryConsole)
    #expect(Environment.current.events is InMemoryEventLog)
  }

  @Test(.environment(.live))
  func aTestThatAsksForTheLiveWorldGetsItAndNothingReports() {
    #expect(Environment.current.clock is SystemClock)
    #expect(Environment.current.fileWriter is DiskFileSystem)
    #expect(Environment.current.console is StandardOutput)
  }

  @Test(.environment(.test(now: launch)))
  func aTestSeesTheEnvironmentItsTraitInstalled() {
    #expect(Environment.current.clock.now == launch)
    #expect(Environment.current.fileReader is InMemoryFileSystem)
  }

  @Test(.environment { $0.locale = Locale(identifier: "ja_JP") })
  func theOverrideReachesChildTasks() async {
    let identifier = await Task { Environment.current.locale.identifier }.value
    #expect(identifier == "ja_JP")
  }

  @Test func withoutTheTraitATestSeesTheLiveRootAndEachReadReports() {
    let line = #line + 2
    let issues = withCapturedIssues {
      #expect(Environment.current.clock is SystemClock)
    }.issues
    expectReadIssues(
      issues,
      [
        CapturedIssue(
          """
          Environment.current.clock was read in a test, but no environment was set for this test, \
          so it answered the live SystemClock. A test should control what it reads and where its effects go: run \
          it with @Test(.environment(.test())) or inside withEnvironment(.test()) { … }, or set \
          environment.clock. To use the real world on purpose (an integration test), say so: \
          withEnvironment(.live) { … } or @Test(.environment(.live)).
          """,
          line: line
        )
      ]
    )
  }
}

@Suite(.environment { $0.clock = FixedClock(launch) })
struct EnvironmentSuiteTraitTests {
  @Test func everyTestOfTheSuiteSeesIt() {
    #expect(Environment.current.clock.now == launch)
  }

  @Test func asyncTestsToo() async {
    #expect(Environment.current.clock.now == launch)
  }
}

/// `.environment(.test())` on a suite: every test, and every argument of a parameterized test —
/// run in parallel — starts from an empty world, and nothing it writes is seen by another.
@Suite(.environment(.test()))
struct EnvironmentTraitFreshWorldTests {
  @Test(arguments: 0..<8) func everyArgumentStartsFromAnEmptyWorld(index: Int) throws {
    let environment = Environment.current
    #expect(environment.defaults.value(for: "written") == nil)
    #expect(throws: (any Error).self) { try environment.fileReader.string(atPath: "/written.txt") }
    let scheduler = try #require(environment.scheduler as? TestScheduler)
    #expect(scheduler.elapsed == .zero)
    #expect(scheduler.pending == [])

    environment.defaults.set(.int(index), for: "written")
    let files = try #require(environment.fileReader as? InMemoryFileSystem)
    try files.writeFile(path: "/written.txt", contents: Data("\(index)".utf8))
    scheduler.schedule(after: .seconds(index + 1)) {}
    scheduler.advanceSynchronously(by: .seconds(index))
    #expect(environment.defaults.value(for: "written") == .int(index))
  }

  @Test func theSuiteTraitAppliesFirstThenTheTests() {
    #expect(Environment.current.fileReader is InMemoryFileSystem)
  }

  @Test(.environment { $0.clock = FixedClock(launch) })
  func aTestsOwnTraitBuildsOnTheSuites() {
    #expect(Environment.current.clock.now == launch)
    #expect(Environment.current.fileReader is InMemoryFileSystem, "the suite's environment is underneath")
  }
}
