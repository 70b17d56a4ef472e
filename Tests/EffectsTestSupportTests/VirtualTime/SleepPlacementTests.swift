import Effects
import EffectsTestHelpers
import Foundation
import Testing

@testable import EffectsTestSupport

/// A model that sleeps on the environment's clock the way app code does: in a method of its own,
/// and through `Task.sleep(for:clock:)`, generic over the clock.
@MainActor private final class Poller {
  private(set) var polls = 0

  /// Sleeps at `pollLine` (where a report about this sleep belongs), then polls.
  func poll() async {
    try? await Environment.current.continuousClock.sleep(for: .seconds(5))
    polls += 1
  }

  /// Sleeps at `genericPollLine`, through the standard library's generic sleep.
  func pollThroughTheStandardLibrary() async {
    let clock = Environment.current.continuousClock
    try? await Task.sleep(for: .seconds(5), clock: clock)
    polls += 1
  }

  nonisolated static let pollLine = 15
  nonisolated static let genericPollLine = 22
}

/// A sleep on `environment.continuousClock` is reported at the line of the code under test that
/// awaited it (#42): a `Clock`'s sleep takes no source location, so the line is found on the
/// sleeping task's chain of async calls, where stacks are symbolicated (Linux). Never at a line of
/// this library, and never naming a `withVirtualTime` the test did not call.
@Suite struct SleepPlacementTests {
  private static let file = "EffectsTestSupportTests/SleepPlacementTests.swift"
  private static let traitScope = "The test's virtual-time scope (@Test(.virtualTime))"

  /// What a scope reports for a task it ended asleep, due at 5 s.
  private static func leftSleeping(_ scope: String, at line: Int, virtualTime: String = ".seconds(1)") -> CapturedIssue
  {
    CapturedIssue(
      """
      \(scope) ended with a task sleeping here on environment.continuousClock still pending (due at .seconds(5); \
      virtual time was \(virtualTime)). It got CancellationError. Advance time past the sleep before the scope ends, \
      or cancel the task; if the test means to leave it, open the scope with leftoverWork: .expected.
      """,
      line: line
    )
  }

  @Test func aModelLeftAsleepInATraitScopeIsReportedAtItsSleep() async throws {
    let test = try #require(Test.current)
    let issues = try await withCapturedIssues {
      try await VirtualTimeTrait.virtualTime.provideScope(for: test, testCase: Test.Case.current) {
        let poller = Poller()
        Task { await poller.poll() }
        await TestScheduler.current.advance(by: .seconds(1))
      }
    }.issues
    #if os(Linux)
    #expect(issues == [Self.leftSleeping(Self.traitScope, at: Poller.pollLine)])
    #else
    #expect(issues.count == 1)
    #endif
  }

  @Test func aModelLeftAsleepInTheStandardLibrarysGenericSleepIsReportedAtItsSleep() async {
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        let poller = Poller()
        Task { await poller.pollThroughTheStandardLibrary() }
        await scheduler.advance(by: .seconds(1))
      }
    }.issues
    #if os(Linux)
    #expect(issues.map(\.line) == [Poller.genericPollLine])
    #expect(issues.first?.message.hasPrefix("withVirtualTime at \(Self.file):") == true)
    #else
    #expect(issues.count == 1)
    #endif
  }

  @Test func twoSleepersOnOneLineAreOneReportAndTwoLinesAreTwo() async {
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        let poller = Poller()
        Task { await poller.poll() }
        Task { await poller.poll() }
        Task { await poller.pollThroughTheStandardLibrary() }
        await scheduler.advance(by: .seconds(1))
      }
    }.issues
    #if os(Linux)
    #expect(issues.map(\.line) == [Poller.pollLine, Poller.genericPollLine])
    #expect(issues.first?.message.contains("ended with 2 tasks sleeping here on environment.continuousClock") == true)
    #endif
  }

  /// The test's own sleep on its clock, which nothing else would end: reported at that line (it was
  /// at `VirtualTimeTrait.swift`), and the scope moves time for it.
  @Test func theTestsOwnSleepOnItsClockInATraitScopeIsReportedAtItsLine() async throws {
    let test = try #require(Test.current)
    let sleepLine = #line + 4
    let issues = try await withCapturedIssues {
      try await VirtualTimeTrait.virtualTime.provideScope(for: test, testCase: Test.Case.current) {
        let clock = Environment.current.continuousClock
        try await clock.sleep(for: .seconds(2))
        #expect(TestScheduler.current.elapsed == .seconds(2))
      }
    }.issues
    #expect(issues.count == 1)
    #expect(issues.first?.message.hasPrefix("The test itself waited on virtual time, until .seconds(2)") == true)
    #if os(Linux)
    #expect(issues.map(\.line) == [sleepLine])
    #expect(issues.map(\.fileID) == [Self.file])
    #endif
  }

  /// A synchronous advance that wakes a model's sleeper names the model's line (it named
  /// `VirtualTimeTrait.swift:104`, the library's line that made the clock).
  @Test func aSynchronousAdvanceThatWakesAModelNamesTheLineThatSlept() async {
    let scopeLine = #line + 2
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        let poller = Poller()
        Task { await poller.poll() }
        await scheduler.advance(by: .seconds(1))
        func forgetsTheAwait() { scheduler.advanceSynchronously(by: .seconds(4)) }
        forgetsTheAwait()
      }
    }.issues
    let unwaited = issues.first { $0.message.hasPrefix("TestScheduler.advanceSynchronously(by:) resumed") }
    #expect(unwaited?.line == scopeLine + 4)
    #if os(Linux)
    #expect(
      unwaited?.message.hasPrefix(
        "TestScheduler.advanceSynchronously(by:) resumed a task sleeping since \(Self.file):\(Poller.pollLine), but the synchronous form"
      ) == true
    )
    #endif
    #expect(issues.allSatisfy { $0.fileID == Self.file })
  }
}
