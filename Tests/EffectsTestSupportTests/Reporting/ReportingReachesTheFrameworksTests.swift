import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

/// What the library reports reaches Swift Testing as a real issue, through each way it reports:
/// most tests capture reports (`withCapturedIssues`) to assert their exact text quietly, so these
/// prove, with `withKnownIssue`, that outside a capture they fail the test. (The XCTest path is
/// proved by the `FailureCapturingTestCase` suites, such as `XCTestReportingTests`.)
@Suite struct ReportingReachesTheFrameworksTests {
  @Test func aFailingSpyAssertionIsAnIssueAtItsLine() {
    let spy = Spy<String, Void>("tokenStore.save")
    spy.record("abd")
    let line = #line + 2
    withKnownIssue {
      spy.assertCalls(count: 2)
    } matching: { issue in
      issue.matches(
        """
        Spy "tokenStore.save" was called 1 time, expected 2 times:
          [0] "abd"
        """,
        line: line
      )
    }
  }

  @Test func aFailingEffectsAssertionIsAnIssueAtItsLine() {
    let line = #line + 2
    withKnownIssue {
      assertEffects(of: Outcome(value: 1, effects: [Effect.print("surprise")]), [])
    } matching: { issue in
      issue.matches(
        """
        assertEffects(of:_:) found other effects: got 1, expected 0; first difference at index 0:
          + [0] print("surprise")   (unexpected)
        """,
        line: line
      )
    }
  }

  @Test func anUnimplementedReadIsAnIssueAtTheReadSite() {
    let environment = Environment.unimplemented()
    let line = #line + 2
    withKnownIssue {
      _ = environment.clock
    } matching: { issue in
      issue.message.hasPrefix("Environment.clock was read")
        && issue.sourceLocation?.fileID == "EffectsTestSupportTests/ReportingReachesTheFrameworksTests.swift"
        && (!readSitesAreFound || issue.sourceLocation?.line == line)
    }
  }

  @Test func leftoverWorkAtTheEndOfAScopeIsAnIssueWhereItWasScheduled() async {
    let scheduler = TestScheduler()
    let line = #line + 3
    await withKnownIssue {
      await scheduler.withVirtualTime {
        _ = scheduler.schedule(after: .seconds(5)) {}
      }
    } matching: { issue in
      issue.message.hasPrefix(
        """
        withVirtualTime at EffectsTestSupportTests/ReportingReachesTheFrameworksTests.swift:\(line - 1) ended with \
        work scheduled here still pending
        """
      )
        && issue.sourceLocation?.line == line
    }
  }

  @Test func readingTheCurrentSchedulerOutsideAScopeIsAnIssueAtTheLineThatRead() throws {
    let test = try #require(Test.current)
    let line = #line + 2
    withKnownIssue {
      _ = TestScheduler.current
    } matching: { issue in
      issue.message.hasPrefix("TestScheduler.current was read outside a virtual-time scope")
        && issue.sourceLocation?.line == (readSitesAreFound ? line : test.sourceLocation.line)
        && issue.sourceLocation?.fileID == test.sourceLocation.fileID
    }
  }

  @Test func anIssueFromATaskTheTestStartedReachesTheTest() async {
    let observer = TestObserver<Int, Never>()
    observer.send(1)
    let line = #line + 2
    await withKnownIssue {
      await Task { observer.assertValues([1, 2]) }.value
    } matching: { issue in
      issue.sourceLocation?.line == line
    }
  }
}
