@testable import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

@Suite struct EnvironmentCurrentTests {
  /// Whether `Environment.current` is an override rather than the root.
  private var isOverridden: Bool {
    Environment.scoped != nil
  }

  @Test func outsideAnyOverrideCurrentIsTheRoot() {
    #expect(!isOverridden)
    #expect(RootEnvironment.shared.publish(marking: false).clock is SystemClock)
  }

  @Test func withEnvironmentOverridesCurrentForItsScopeOnly() {
    let date = Date(timeIntervalSince1970: 0)
    let inside = withEnvironment({ $0.clock = FixedClock(date) }) {
      Environment.current.clock.now
    }
    #expect(inside == date)
    #expect(!isOverridden)
  }

  @Test func nestedOverridesBuildOnTheOuterOne() {
    withEnvironment(.live) {
      withEnvironment({ $0.clock = FixedClock(Date(timeIntervalSince1970: 1)) }) {
        withEnvironment({ $0.locale = Locale(identifier: "de_DE") }) {
          #expect(Environment.current.clock.now == Date(timeIntervalSince1970: 1))
          #expect(Environment.current.locale.identifier == "de_DE")
        }
        #expect(Environment.current.locale == Locale.autoupdatingCurrent)
      }
    }
  }

  @Test func aWholeEnvironmentCanBeInstalled() {
    var environment = Environment.live
    environment[FeatureFlagsKey.self] = ["scoped"]
    withEnvironment(environment) {
      #expect(Environment.current[FeatureFlagsKey.self] == ["scoped"])
    }
  }

  @Test func theAsyncOverrideFollowsChildTasks() async {
    let date = Date(timeIntervalSince1970: 42)
    let seen = await withEnvironment({ $0.clock = FixedClock(date) }) {
      await withTaskGroup(of: Date.self) { group in
        for _ in 0..<4 { group.addTask { Environment.current.clock.now } }
        return await group.reduce(into: []) { $0.append($1) }
      }
    }
    #expect(seen == Array(repeating: date, count: 4))
  }

  @Test func anUnstructuredTaskInheritsTheOverrideAndADetachedOneSeesTheRoot() async {
    // `current` answers the innermost override wherever one is bound (the root, read live, would
    // report in a test).
    @Sendable func read() -> (fast: Date?, checked: Date?) {
      (Environment.scoped == nil ? nil : (Environment.current.clock as? FixedClock)?.now, Environment.scoped?.clock.now)
    }
    let outer = Date(timeIntervalSince1970: 1)
    let inner = Date(timeIntervalSince1970: 2)
    let seen = await withEnvironment({ $0.clock = FixedClock(outer) }) {
      await withEnvironment({ $0.clock = FixedClock(inner) }) {
        let inherited = await Task { read() }.value
        let detached = await Task.detached { read() }.value
        let onAThread = await withCheckedContinuation { continuation in
          Thread { continuation.resume(returning: read()) }.start()
        }
        return [read(), inherited, detached, onAThread]
      }
    }
    #expect(seen.map(\.fast) == [inner, inner, nil, nil])
    #expect(seen.map(\.checked) == [inner, inner, nil, nil])
    #expect(read().fast == nil && read().checked == nil)
  }

  @Test func anErrorThrownInsideIsRethrownAndTheOverrideEnds() {
    struct Boom: Error {}
    #expect(throws: Boom.self) {
      try withEnvironment({ $0.clock = FixedClock(Date(timeIntervalSince1970: 0)) }) { throw Boom() }
    }
    #expect(!isOverridden)
  }

  @MainActor @Test func aMainActorCallerCanAwaitInsideAnOverride() async {
    let model = CounterModel()
    await withEnvironment({ $0.defaults = InMemoryDefaults(["start": 41]) }) {
      await model.load()
    }
    #expect(model.count == 42)
  }

  /// 200 tests running in parallel, each with its own override, each checking it after suspending.
  @Test(arguments: 0..<200)
  func parallelOverridesNeverLeakIntoEachOther(_ index: Int) async {
    let date = Date(timeIntervalSince1970: Double(index))
    await withEnvironment({ $0.clock = FixedClock(date) }) {
      #expect(Environment.current.clock.now == date)
      await hopToAnotherThread()
      await withTaskGroup(of: Void.self) { group in
        group.addTask { #expect(Environment.current.clock.now == date) }
      }
      #expect(Environment.current.clock.now == date)
    }
  }

  @Test func aSecondBootstrapIsRefusedNamingBothCallSites() throws {
    let root = RootEnvironment()
    var first = Environment.live
    first[FeatureFlagsKey.self] = ["first"]
    try root.bootstrap(first, at: CallSite(fileID: "App/main.swift", filePath: "/App/main.swift", line: 3))
    #expect(root.environment[FeatureFlagsKey.self] == ["first"])

    let error = try #require(throws: BootstrapError.self) {
      try root.bootstrap(.live, at: CallSite(fileID: "App/Other.swift", filePath: "/App/Other.swift", line: 9))
    }
    #expect(
      error.description
        == "Environment.bootstrap(_:) was called twice: first at App/main.swift:3, again at App/Other.swift:9. "
        + "The second call changed nothing: the first environment stays the root. Bootstrap the process's "
        + "environment once, at launch; to change it for one scope (a test, a request), "
        + "use withEnvironment(_:operation:) instead."
    )
    #expect(root.environment[FeatureFlagsKey.self] == ["first"], "the first bootstrap stays in force")
  }

  @Test func aBootstrapAfterTheRootWasReadIsRefusedBecauseReadersAlreadySawTheOldRoot() throws {
    let root = RootEnvironment()
    var bootstrapped = Environment.live
    bootstrapped[FeatureFlagsKey.self] = ["too late"]
    let seen = root.publish(marking: false)

    let error = try #require(throws: BootstrapError.self) {
      try root.bootstrap(bootstrapped, at: CallSite(fileID: "App/Late.swift", filePath: "/App/Late.swift", line: 12))
    }
    #expect(
      error.description
        == "Environment.bootstrap(_:) was called at App/Late.swift:12, after Environment.current had already been "
        + "read outside withEnvironment, so code has already seen the previous root. This call changed nothing: "
        + "the root stays the one already read. Bootstrap once, at launch, before anything reads Environment.current."
    )
    #expect(root.environment[FeatureFlagsKey.self] == seen[FeatureFlagsKey.self])
    #expect(root.environment[FeatureFlagsKey.self] != ["too late"])
  }

  @Test func aTestBinaryFindsTheReporterOfTestSupportByName() throws {
    let reporter = try #require(TestSupportLink.reporter, "the class name in TestSupportLink is stale")
    #expect("\(reporter)" == "TestIssueReporter")
  }

  @Test func anAppsRootIsUnmarkedSoNoReadReports() {
    let root = RootEnvironment().publish(marking: false)
    _ = (root.clock, root.bundle, root.fileReader, root.fileWriter, root.defaults, root.scheduler)
    _ = (root.console, root.events, root.calendar, root.locale, root.timeZone)
    #expect(root[FeatureFlagsKey.self] == ["live-only"])
  }

  /// A test host (an app that bootstraps at launch) runs its tests on its own root: a test that
  /// set no environment must hear about it there too.
  @Test func aBootstrappedRootIsMarkedInATestProcessAndTheMessageNamesTheBootstrap() throws {
    let root = RootEnvironment()
    var hosted = Environment.live
    hosted[FeatureFlagsKey.self] = ["hosted"]
    try root.bootstrap(hosted, at: CallSite(fileID: "App/main.swift", filePath: "/App/main.swift", line: 3))
    let environment = root.publish()
    var flags: Set<String> = []
    let line = #line + 3
    let issues = withCapturedIssues {
      // The root's own key reports too: a test host's bootstrapped client is as live as any.
      flags = environment[FeatureFlagsKey.self]
      _ = environment.clock
    }.issues
    expectReadIssues(
      issues,
      [
        CapturedIssue(
          """
          Environment.current[FeatureFlagsKey.self] was read in a test, but no environment was set for this \
          test, so it answered its value from the root environment bootstrapped at App/main.swift:3. A test \
          should control what it reads and where its effects go: run it with @Test(.environment(.test())) or \
          inside withEnvironment(.test()) { … }, or set environment[FeatureFlagsKey.self] (or the property that \
          wraps it). To use the real world on purpose (an integration test), say so: withEnvironment(.live) { … } \
          or @Test(.environment(.live)).
          """,
          line: line
        ),
        CapturedIssue(
          """
          Environment.current.clock was read in a test, but no environment was set for this test, \
          so it answered its SystemClock from the root environment bootstrapped at App/main.swift:3. A test should \
          control what it reads and where its effects go: run it with @Test(.environment(.test())) or inside \
          withEnvironment(.test()) { … }, or set environment.clock. To use the real world on purpose (an \
          integration test), say so: withEnvironment(.live) { … } or @Test(.environment(.live)).
          """,
          line: line + 1
        ),
      ]
    )
    #expect(flags == ["hosted"])
  }

  @Test func theRootsOwnKeyAnswersItsValueNotTheKeysLiveValue() throws {
    let root = RootEnvironment()
    var hosted = Environment.live
    hosted[FeatureFlagsKey.self] = ["hosted"]
    try root.bootstrap(hosted, at: CallSite())
    #expect(root.publish(marking: false)[FeatureFlagsKey.self] == ["hosted"])
  }

  @Test func aRefusedBootstrapIsReportedThroughTheReporterAtTheBootstrapCall() throws {
    let root = RootEnvironment()
    try root.bootstrap(.live, at: CallSite(fileID: "App/main.swift", filePath: "/App/main.swift", line: 3))
    let second = CallSite(fileID: "App/Other.swift", filePath: "/App/Other.swift", line: 9)
    let error = try #require(throws: BootstrapError.self) { try root.bootstrap(.live, at: second) }
    RecordingReporter.reports.withLock { $0 = [] }
    error.report(reporter: RecordingReporter.self)
    #expect(RecordingReporter.reports.snapshot.map(\.message) == [error.description])
    #expect(RecordingReporter.reports.snapshot.map(\.callSite) == [second])
  }

  @Test func aBootstrapBeforeTheFirstReadIsWhatThatReadSees() throws {
    let root = RootEnvironment()
    var bootstrapped = Environment.live
    bootstrapped[FeatureFlagsKey.self] = ["at launch"]
    try root.bootstrap(bootstrapped, at: CallSite())
    #expect(root.publish(marking: false)[FeatureFlagsKey.self] == ["at launch"])
  }
}

@MainActor
final class CounterModel {
  var count = 0

  func load() async {
    count = ((try? Environment.current.defaults.value(for: DefaultsKey<Int>("start"))) ?? 0) + 1
  }
}

/// Suspends the current task and resumes it from a Dispatch thread: a real suspension, no sleeping.
func hopToAnotherThread() async {
  await withCheckedContinuation { continuation in
    DispatchQueue.global().async { continuation.resume() }
  }
}

/// A reporter that keeps what it is given, in place of test support's.
enum RecordingReporter: TestIssueReporting {
  static let reports = Locked<[(message: String, kind: ReportKind, callSite: CallSite?)]>([])

  static func report(_ message: String, kind: ReportKind, at callSite: CallSite?) {
    reports.withLock { $0.append((message, kind, callSite)) }
  }

  static func report(_ message: String, kind: ReportKind, exactlyAt callSite: CallSite) {
    reports.withLock { $0.append((message, kind, callSite)) }
  }
}
