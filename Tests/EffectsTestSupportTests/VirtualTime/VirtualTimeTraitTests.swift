import Effects
import EffectsTestHelpers
@testable import EffectsTestSupport
import Foundation
import Testing

/// A `@MainActor` model that schedules through `Environment.current`, as app code does.
@MainActor private final class ToastModel {
  private(set) var text: String?

  func show(_ text: String) {
    self.text = text
    Environment.current.scheduler.schedule(after: .seconds(3)) { [weak self] in
      MainActor.assumeIsolated { self?.text = nil }
    }
  }

  func showAfterLoading(_ text: String) async {
    try? await TestScheduler.current.sleep(for: .seconds(1))
    show(text)
  }
}

/// `@Test(.virtualTime)`: a fresh scheduler and scope per test case, which `Environment.current`
/// and ``TestScheduler/current`` both answer.
@Suite struct VirtualTimeTraitTests {
  private static let file = "EffectsTestSupportTests/VirtualTimeTraitTests.swift"

  /// What the end of the scope at `scopeLine` reports for a task left sleeping 2 s on the scope's
  /// own `environment.continuousClock` after a 1 s advance: at the scope, naming the clock.
  /// A task left asleep on `environment.continuousClock` at `sleepLine`, reported there, in the
  /// scope named `scope`.
  private static func leftSleeping(at sleepLine: Int, scope: String) -> CapturedIssue {
    CapturedIssue(
      """
      \(scope) ended with a task sleeping here on environment.continuousClock still pending (due at \
      .seconds(2); virtual time was .seconds(1)). It got CancellationError. Advance time past the sleep before \
      the scope ends, or cancel the task; if the test means to leave it, open the scope with leftoverWork: \
      .expected.
      """,
      line: sleepLine
    )
  }

  /// How reports name the scope a `withVirtualTime` opened at `line` of this file.
  private static func namingWithVirtualTime(at line: Int) -> String {
    "withVirtualTime at EffectsTestSupportTests/VirtualTimeTraitTests.swift:\(line)"
  }

  /// How reports name the scope of `@Test(.virtualTime)`: never an API the test did not call.
  private static let traitScope = "The test's virtual-time scope (@Test(.virtualTime))"

  @Test(.virtualTime) func theTestsSchedulerIsTheEnvironmentsSchedulerAndClock() {
    let scheduler = TestScheduler.current
    #expect(Environment.current.scheduler as? TestScheduler === scheduler)
    #expect(Environment.current.clock as? TestScheduler === scheduler)
    #expect(scheduler.elapsed == .zero)
  }

  /// Alone, the trait gives the test a test environment: before, only the clock and scheduler were
  /// replaced, and every other read answered the live world (and reported it).
  @Test(.virtualTime) func aloneItGivesTheTestATestEnvironmentOnItsScheduler() throws {
    let environment = Environment.current
    let issues = withCapturedIssues {
      environment.defaults.set("dark", for: "theme")
      try? environment.fileWriter.writeFile(path: "/notes.txt", contents: Data("hi".utf8))
      _ = environment.apiClient
    }.issues
    #expect(issues == [], "every field answers its test double, silently")
    #expect(environment.defaults is InMemoryDefaults)
    #expect(try environment.fileReader.string(atPath: "/notes.txt") == "hi", "one file system reads what was written")
    #expect(environment.console is InMemoryConsole)
    #expect(environment.clock as? TestScheduler === TestScheduler.current)
  }

  @Test(.virtualTime) func aKeyWithoutATestValueNamesTheTraitThatMadeTheEnvironment() {
    let environment = Environment.current
    let line = #line + 2
    let issues = withCapturedIssues {
      _ = environment[AnalyticsEndpointKey.self]
    }.issues
    expectReadIssues(
      issues,
      [
        CapturedIssue(
          """
          Environment[AnalyticsEndpointKey.self] answered AnalyticsEndpointKey.liveValue in the test environment \
          made by @Test(.virtualTime), because AnalyticsEndpointKey has no testValue. Declare `static let \
          testValue` on AnalyticsEndpointKey, or set environment[AnalyticsEndpointKey.self] (or the property \
          that wraps it) in the test.
          """,
          line: line
        )
      ]
    )
  }

  @Test func theClosureFormWithNoEnvironmentSetRunsOnATestEnvironment() async {
    let isTestDouble = await withVirtualTime { scheduler in
      Environment.current.defaults is InMemoryDefaults && Environment.current.scheduler as? TestScheduler === scheduler
    }
    #expect(isTestDouble)
  }

  @MainActor @Test(.virtualTime) func aMainActorModelIsOnVirtualTimeWithNoWiring() async {
    let toast = ToastModel()
    let loading = Task { await toast.showAfterLoading("Saved") }
    await TestScheduler.current.advance(by: .seconds(1))
    #expect(toast.text == "Saved")
    await TestScheduler.current.advance(by: .seconds(3))
    #expect(toast.text == nil)
    await loading.value
  }

  /// Every argument gets its own scheduler: each starts at zero, whatever the others advanced.
  @Test(.virtualTime, arguments: 1...4) func everyArgumentGetsItsOwnScheduler(seconds: Int) async {
    let scheduler = TestScheduler.current
    #expect(scheduler.elapsed == .zero)
    #expect(scheduler.pending == [])
    scheduler.schedule(after: .seconds(seconds)) {}
    await scheduler.advance(by: .seconds(seconds))
    #expect(scheduler.elapsed == .seconds(seconds))
  }

  @Test(.environment(.test()), .virtualTime) func anEnvironmentTraitFirstGetsTheScopesScheduler() {
    #expect(Environment.current.scheduler as? TestScheduler === TestScheduler.current)
    #expect(Environment.current.fileReader is InMemoryFileSystem)
  }

  @Test(.virtualTime, .environment(.test())) func anEnvironmentTraitSecondGetsTheScopesSchedulerToo() {
    #expect(Environment.current.scheduler as? TestScheduler === TestScheduler.current)
    #expect(Environment.current.clock as? TestScheduler === TestScheduler.current)
    #expect(Environment.current.fileReader is InMemoryFileSystem)
  }

  /// The scope sets `Environment.current` too (the live root with its scheduler): the closure form
  /// must not build on that, in either order.
  @Test(.virtualTime, .environment { $0.locale = Locale(identifier: "fr_FR") })
  func theClosureFormAfterTheScopeStillStartsFromATestEnvironment() {
    #expect(Environment.current.locale.identifier == "fr_FR")
    #expect(Environment.current.scheduler as? TestScheduler === TestScheduler.current)
    #expect(Environment.current.fileWriter is InMemoryFileSystem)
    #expect(Environment.current.defaults is InMemoryDefaults)
    #expect(Environment.current.console is InMemoryConsole)
  }

  @Test(.environment { $0.locale = Locale(identifier: "fr_FR") }, .virtualTime)
  func theClosureFormBeforeTheScopeToo() {
    #expect(Environment.current.scheduler as? TestScheduler === TestScheduler.current)
    #expect(Environment.current.fileWriter is InMemoryFileSystem)
  }

  @Test func leftoverWorkInATraitScopeIsReportedAtTheLineThatScheduledIt() async throws {
    let test = try #require(Test.current)
    let scheduleLine = #line + 3
    let issues = try await withCapturedIssues {
      try await VirtualTimeTrait.virtualTime.provideScope(for: test, testCase: Test.Case.current) {
        Environment.current.scheduler.schedule(after: .seconds(1)) {}
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          The test's virtual-time scope (@Test(.virtualTime)) ended with work scheduled here still pending (due \
          at .seconds(1); virtual time was .seconds(0)). It was cancelled. Advance time past it (advance(by:), \
          run()) before the scope ends, or cancel it; if the test means to leave it, open the scope with \
          leftoverWork: .expected.
          """,
          line: scheduleLine
        )
      ]
    )
  }

  /// The trait's environment's clock was made by test support, and a `Clock`'s sleep takes no
  /// source location: the sleep is reported at the line that awaited it, found on the sleeping
  /// task, never at a line of the library, and the report names no API the test did not call.
  @Test func aTaskLeftSleepingOnTheTraitEnvironmentsClockIsReportedAtTheLineThatSlept() async throws {
    let test = try #require(Test.current)
    let sleepLine = #line + 4
    let issues = try await withCapturedIssues {
      try await VirtualTimeTrait.virtualTime.provideScope(for: test, testCase: Test.Case.current) {
        let clock = Environment.current.continuousClock
        Task { try await clock.sleep(for: .seconds(2)) }
        await TestScheduler.current.advance(by: .seconds(1))
      }
    }.issues
    #expect(issues == [Self.leftSleeping(at: sleepLine, scope: Self.traitScope)])
  }

  /// The closure's environment's clock was made for the scope, at its line: a sleep on it is
  /// reported at the line that awaited it, never as "sleeping here" at the scope's line.
  @Test func aTaskLeftSleepingOnTheClosureEnvironmentsClockIsReportedAtTheLineThatSlept() async {
    let scopeLine = #line + 2
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        Task { try await Environment.current.continuousClock.sleep(for: .seconds(2)) }
        await scheduler.advance(by: .seconds(1))
      }
    }.issues
    #expect(issues == [Self.leftSleeping(at: scopeLine + 1, scope: Self.namingWithVirtualTime(at: scopeLine))])
  }

  @Test func aTaskLeftSuspendedInATraitScopeIsReportedAtTheLineThatStartedIt() async throws {
    let test = try #require(Test.current)
    let (stream, input) = AsyncStream<Int>.makeStream()
    let issues = try await withCapturedIssues {
      try await VirtualTimeTrait.virtualTime.provideScope(for: test, testCase: Test.Case.current) {
        Task { for await _ in stream {} }
      }
    }.issues
    // Reported at the line that started the task, naming the test whose scope it outlived.
    #expect(
      issues == [
        CapturedIssue(
          """
          The test's virtual-time scope (@Test(.virtualTime)) ended with a task started here still \
          suspended, waiting for something other than the scheduler: a stream that never yields, a continuation \
          never resumed, a task it awaits, a real sleep or I/O. It was cancelled, and ended. Let the task finish \
          (or cancel it) before the scope ends; if the test means to leave it running, open the scope with \
          leftoverWork: .expected.
          """,
          line: test.sourceLocation.line + 5
        )
      ]
    )
    input.finish()
  }

  @Test func aTraitThatExpectsLeftoversLeavesThemAlone() async throws {
    let scheduler = Locked<TestScheduler?>(nil)
    try await VirtualTimeTrait.virtualTime(leftoverWork: .expected).provideScope(
      for: Test.current!,
      testCase: Test.Case.current
    ) {
      scheduler.withLock { $0 = TestScheduler.current }
      TestScheduler.current.schedule(after: .seconds(1)) {}
    }
    #expect(scheduler.snapshot?.pending.count == 1)
  }

  @Test func theTraitStartsTheSchedulerAtTheInstantGiven() async throws {
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let now = Locked<Date?>(nil)
    try await VirtualTimeTrait.virtualTime(now: start).provideScope(for: Test.current!, testCase: Test.Case.current) {
      now.withLock { $0 = Environment.current.clock.now }
    }
    #expect(now.snapshot == start)
  }

  @Test func readingTheCurrentSchedulerOutsideAScopeIsReported() throws {
    let test = try #require(Test.current)
    let line = #line + 2
    let issues = withCapturedIssues {
      _ = TestScheduler.current
    }.issues
    // Reported at the line that read it, found on the stack (a static property cannot take the
    // caller's line); at the test where the stack cannot say.
    #expect(
      issues == [
        CapturedIssue(
          """
          TestScheduler.current was read outside a virtual-time scope, so there is no test scheduler to answer; \
          here is a new one that nothing else uses. Mark the test @Test(.virtualTime) (or its suite \
          @Suite(.virtualTime)), or wrap its body in withVirtualTime { scheduler in … }.
          """,
          fileID: test.sourceLocation.fileID,
          line: readSitesAreFound ? line : test.sourceLocation.line
        )
      ]
    )
  }

  @Test(.environment(.test()))
  func theClosureFormOpensTheSameScope() async {
    let outer = Environment.current
    let sawScheduler = await withVirtualTime { scheduler in
      let task = Task { try await Environment.current.scheduler.sleep(for: .seconds(2)) }
      await scheduler.advance(by: .seconds(2))
      try? await task.value
      return TestScheduler.current === scheduler && Environment.current.scheduler as? TestScheduler === scheduler
    }
    #expect(sawScheduler)
    #expect(Environment.current.scheduler as? TestScheduler === outer.scheduler as? TestScheduler)
  }

  @Test(.environment(.test()))
  func theMethodFormOpensTheSameScopeOnTheSchedulerItIsCalledOn() async {
    let outer = Environment.current
    let scheduler = TestScheduler()
    let sawScheduler = await scheduler.withVirtualTime {
      let task = Task { try await Environment.current.continuousClock.sleep(for: .seconds(2)) }
      await scheduler.advance(by: .seconds(2))
      try? await task.value
      return TestScheduler.current === scheduler && Environment.current.scheduler as? TestScheduler === scheduler
    }
    #expect(sawScheduler)
    #expect(scheduler.elapsed == .seconds(2))
    #expect(Environment.current.scheduler as? TestScheduler === outer.scheduler as? TestScheduler)
  }

  /// A scope opened inside the test's, on a scheduler of its own, is not opened (a test has one
  /// scope): it is reported at its line, and the test's environment stays on the test's
  /// scheduler, so the test's own advance answers the network's latencies after it.
  @Test(.virtualTime, .timeLimit(.minutes(1)))
  func aScopeOpenedInsideTheTestsIsReportedAndLeavesTheNetworkOnTheTestsScheduler() async throws {
    let network = Environment.current.stubNetwork
    network.stub(.get("https://api.example.com/me"), .ok("Ada"), after: .seconds(1))
    let inner = TestScheduler()
    let innerLine = #line + 1
    let issues = await withCapturedIssues { await inner.withVirtualTime {} }.issues
    #expect(
      issues == [
        CapturedIssue(
          VirtualTimeWording.nestedScope(
            outer: FailureLocation(try #require(Test.current).sourceLocation),
            fresh: false
          ),
          line: innerLine
        )
      ]
    )
    #expect(
      issues.first?.message.contains("inside another one, the test's virtual-time scope (@Test(.virtualTime))") == true
    )
    let load = Task { try await Environment.current.network.send(.get("https://api.example.com/me")) }
    await TestScheduler.current.advance(by: .seconds(1))
    load.cancel()  // answered by now; if it still sleeps on another scheduler, this ends it
    #expect(try await load.value.text == "Ada")
  }

  /// A stub the test made, unused, is the test's to report, at the end of the test's scope: a
  /// scope opened inside it is not opened (reported), and reports none of the test's stubs.
  @Test func aTestsUnusedStubIsReportedAtTheEndOfTheTestsScopeNotAtANestedOne() async {
    let stubLine = #line + 4
    var inner: [CapturedIssue] = [.init("not run", line: 0)]
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        Environment.current.stubNetwork.stub(.get("https://api.example.com/me"), .ok("Ada"))
        inner = await withCapturedIssues { await TestScheduler().withVirtualTime {} }.issues
      }
    }.issues
    #expect(inner.map(\.line) == [stubLine + 1], "only the nested scope is reported there, none of the test's stubs")
    #expect(
      inner.first?.message.hasPrefix("A virtual-time scope was opened here inside another one, withVirtualTime at")
        == true
    )
    #expect(
      issues == [
        CapturedIssue(
          """
          StubNetwork stub made here was never used: GET https://api.example.com/me → 200 body: "Ada". It got no \
          request.
          Remove the stub if the code should not send this request, or find why it did not (a request matches with \
          the same method, URL and body).
          """,
          line: stubLine
        )
      ]
    )
  }

  /// An environment the test set is moved onto the scope's scheduler, clock included: a sleep left
  /// on that clock is reported at the line that slept, not at the line that made the environment.
  @Test func aTaskLeftSleepingOnTheClockOfAnEnvironmentTheTestSetIsReportedAtTheLineThatSlept() async {
    let scopeLine = #line + 3
    let issues = await withCapturedIssues {
      await withEnvironment(.test()) {
        await withVirtualTime { scheduler in
          Task { try await Environment.current.continuousClock.sleep(for: .seconds(2)) }
          await scheduler.advance(by: .seconds(1))
        }
      }
    }.issues
    #expect(issues == [Self.leftSleeping(at: scopeLine + 1, scope: Self.namingWithVirtualTime(at: scopeLine))])
  }

  @Test func theMethodFormWithNoEnvironmentSetRunsOnATestEnvironmentOfItsOwn() async {
    let scheduler = TestScheduler()
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        Environment.current.console.print("in the scope")
        #expect(Environment.current.printedLines == ["in the scope"], "an in-memory console, not the live one")
        #expect(Environment.current.scheduler as? TestScheduler === scheduler)
      }
    }.issues
    #expect(issues == [], "no read of the live world")
  }

  @Test func theClosureFormReportsLeftoversAtTheLineThatScheduledThem() async {
    let scopeLine = #line + 3
    let scheduleLine = #line + 3
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        _ = scheduler.schedule(after: .seconds(1)) {}
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          withVirtualTime at EffectsTestSupportTests/VirtualTimeTraitTests.swift:\(scopeLine) ended with work \
          scheduled here still pending (due at .seconds(1); virtual time was .seconds(0)). It was cancelled. Advance \
          time past it (advance(by:), run()) before the scope ends, or cancel it; if the test means to leave it, \
          open the scope with leftoverWork: .expected.
          """,
          line: scheduleLine
        )
      ]
    )
  }
}

/// The suite form: every test of the suite gets its own scheduler.
@Suite(.virtualTime) struct VirtualTimeSuiteTraitTests {
  @Test func first() async {
    #expect(TestScheduler.current.elapsed == .zero)
    await TestScheduler.current.advance(by: .seconds(1))
  }

  @Test func second() async {
    #expect(TestScheduler.current.elapsed == .zero)
    await TestScheduler.current.advance(by: .seconds(2))
  }
}
