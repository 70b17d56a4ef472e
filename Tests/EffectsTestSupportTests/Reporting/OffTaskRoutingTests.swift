@testable import Effects
import EffectsTestHelpers
@testable import EffectsTestSupport
import Foundation
import Testing

/// Where a report raised off the test's task goes (#27, "No failure is lost"), decided in this
/// process: the facts of the host as each off-task origin sees them — a `Thread`, a Dispatch
/// queue, a detached task, a detached task of a virtual-time scope — and, with hosts forced by
/// `withTestHost`, what each report becomes there. `OffTaskFailureExitTests` proves end to end
/// that the reports reach the test.
@Suite(.timeLimit(.minutes(1)))
struct OffTaskRoutingTests {
  /// Where a failure with no test goes in this process: an issue of the run in SwiftPM's Swift
  /// Testing run (where these tests run on Linux), a line on standard error in XCTest's runner
  /// with no case running (Xcode running Swift Testing's tests).
  static let failureWithNoTest: TestHost.Destination =
    TestHost.Runner.ofThisProcess == .swiftTesting ? .swiftTestingIssue : .standardError

  @Test func aThreadCarriesNoTestAndAFailureThereIsAnIssueOfTheRun() async {
    let host = await withCheckedContinuation { (done: CheckedContinuation<TestHost, Never>) in
      Thread { done.resume(returning: TestHost.current) }.start()
    }
    #expect(!host.swiftTestingTest)
    #expect(!host.virtualTimeScope)
    #expect(host.destination(of: .failure) == Self.failureWithNoTest)
  }

  @Test func aDispatchQueueCarriesNoTestAndAFailureThereIsAnIssueOfTheRun() async {
    let host = await withCheckedContinuation { (done: CheckedContinuation<TestHost, Never>) in
      DispatchQueue.global().async { done.resume(returning: TestHost.current) }
    }
    #expect(!host.swiftTestingTest)
    #expect(!host.virtualTimeScope)
    #expect(host.destination(of: .failure) == Self.failureWithNoTest)
  }

  @Test func aDetachedTaskCarriesNoTestAndAFailureThereIsAnIssueOfTheRun() async {
    let host = await Task.detached { TestHost.current }.value
    #expect(!host.swiftTestingTest)
    #expect(!host.virtualTimeScope)
    #expect(host.destination(of: .failure) == Self.failureWithNoTest)
  }

  /// (b) of #27: a detached task of a test's virtual-time scope carries no test, but it is the
  /// test's code: a read of the live root there is reported as a failure, not as the host's own.
  @Test func aDetachedTaskOfAVirtualTimeScopeIsTheTestsCode() async {
    let host = await withVirtualTime { _ in await Task.detached { TestHost.current }.value }
    #expect(!host.swiftTestingTest)
    #expect(host.virtualTimeScope)
    #expect(host.destination(of: .liveRead) == Self.failureWithNoTest)
    // Outside the scope, the same read stays what it was.
    let outside = await Task.detached { TestHost.current }.value
    #expect(!outside.virtualTimeScope)
    #expect(outside.destination(of: .liveRead) != Self.failureWithNoTest)
  }

  /// Every off-task origin, row by row: a task of a virtual-time scope is a test's code in every
  /// host; anywhere else, a live read with no test running stays the host's own.
  @Test func eachOffTaskOriginSendsEachKindOfReportToOnePlace() {
    let rows: [(TestHost, ReportRouting, TestHost.Destination)] = [
      // SwiftPM's Swift Testing run: a thread, a queue, a detached task, after the test returned.
      (Self.swiftTestingOffTask, .failure, .swiftTestingIssue),
      (Self.swiftTestingOffTask, .liveRead, .standardError),
      // A detached task of a test's virtual-time scope.
      (Self.swiftTestingInAScope, .failure, .swiftTestingIssue),
      (Self.swiftTestingInAScope, .liveRead, .swiftTestingIssue),
      // An XCTest case runs: whatever thread reports, XCTest takes it.
      (Self.xcodeInACaseOffTask, .failure, .xcTestFailure),
      (Self.xcodeInACaseOffTask, .liveRead, .xcTestFailure),
      // Xcode with no case running (after the case returned, or a Swift Testing test's thread).
      (Self.xcodeWithNoCaseOffTask, .failure, .standardError),
      (Self.xcodeWithNoCaseOffTask, .liveRead, .nowhere),
      (Self.xcodeWithNoCaseInAScope, .liveRead, .standardError),
      // A process that runs no tests.
      (Self.noTests, .liveRead, .nowhere),
    ]
    for (host, kind, destination) in rows {
      #expect(host.destination(of: kind) == destination, "\(host), \(kind)")
    }
  }

  static let swiftTestingOffTask = TestHost(runner: .swiftTesting, swiftTestingTest: false, xcTestCase: false)
  static let swiftTestingInAScope = TestHost(
    runner: .swiftTesting,
    swiftTestingTest: false,
    xcTestCase: false,
    virtualTimeScope: true
  )
  static let xcodeInACaseOffTask = TestHost(runner: .xcTest, swiftTestingTest: false, xcTestCase: true)
  static let xcodeWithNoCaseOffTask = TestHost(runner: .xcTest, swiftTestingTest: false, xcTestCase: false)
  static let xcodeWithNoCaseInAScope = TestHost(
    runner: .xcTest,
    swiftTestingTest: false,
    xcTestCase: false,
    virtualTimeScope: true
  )
  static let noTests = TestHost(runner: .none, swiftTestingTest: false, xcTestCase: false)

  // MARK: What each report becomes

  /// A read of the live root in a task of a virtual-time scope: an issue with no test, with the
  /// live-read text, at the line that read.
  @Test func aLiveReadInATaskOfAScopeIsAnIssueOfTheRunAtTheReadSite() {
    let environment = RootEnvironment().publish(marking: true)
    let line = #line + 1
    let reports = withTestHost(Self.swiftTestingInAScope) { _ = environment.scheduler }.reports
    #expect(
      reports == [
        RoutedReport(
          .swiftTestingIssue,
          """
          Environment.current.scheduler was read in a test, but no environment was set for this test, so it \
          answered the live DispatchScheduler. A test should control what it reads and where its effects go: run \
          it with @Test(.environment(.test())) or inside withEnvironment(.test()) { … }, or set \
          environment.scheduler. To use the real world on purpose (an integration test), say so: \
          withEnvironment(.live) { … } or @Test(.environment(.live)). [ReportKind.liveRead]
          """,
          fileID: readSitesAreFound ? "EffectsTestSupportTests/OffTaskRoutingTests.swift" : nil,
          line: readSitesAreFound ? line : nil
        )
      ]
    )
  }

  /// The other side: the same read with no test running and no scope — an app hosting the tests,
  /// at launch — is the host's own, and nothing is said.
  @Test func aLiveReadWithNoTestAndNoScopeIsTheHostsOwn() {
    let environment = RootEnvironment().publish(marking: true)
    let reports = withTestHost(Self.xcodeWithNoCaseOffTask) { _ = environment.scheduler }.reports
    #expect(reports == [])
  }

  /// (a) of #27, with no test on the task: placed at the line that read, not at a line of test
  /// support.
  @Test func theCurrentSchedulerReadWithNoTestIsAnIssueOfTheRunAtTheReadSite() {
    let line = #line + 1
    let reports = withTestHost(Self.swiftTestingOffTask) { _ = TestScheduler.current }.reports
    #expect(
      reports == [
        RoutedReport(
          .swiftTestingIssue,
          """
          TestScheduler.current was read outside a virtual-time scope, so there is no test scheduler to answer; \
          here is a new one that nothing else uses. Mark the test @Test(.virtualTime) (or its suite \
          @Suite(.virtualTime)), or wrap its body in withVirtualTime { scheduler in … }. [ReportKind.wrongScheduler]
          """,
          fileID: readSitesAreFound ? "EffectsTestSupportTests/OffTaskRoutingTests.swift" : nil,
          line: readSitesAreFound ? line : nil
        )
      ]
    )
  }

  /// The same read in Xcode after the case returned: one line on standard error, naming the read.
  @Test func theCurrentSchedulerReadWithNoCaseRunningIsALineNamingTheReadSite() {
    let line = #line + 1
    let reports = withTestHost(Self.xcodeWithNoCaseOffTask) { _ = TestScheduler.current }.reports
    let read =
      """
      swift-effects: TestScheduler.current was read outside a virtual-time scope, so there is no test scheduler to \
      answer; here is a new one that nothing else uses. Mark the test @Test(.virtualTime) (or its suite \
      @Suite(.virtualTime)), or wrap its body in withVirtualTime { scheduler in … }.
      """
    let expected =
      (readSitesAreFound ? "\(read) (Read at EffectsTestSupportTests/OffTaskRoutingTests.swift:\(line).)" : read)
      + " [ReportKind.wrongScheduler]"
    #expect(reports == [RoutedReport(.standardError, expected)])
  }
}
