import Effects
import EffectsTestHelpers
import Foundation
import Testing

@testable import EffectsTestSupport

/// A model that loads after a delay on the environment's clock.
@MainActor private final class DelayedLoader {
  private(set) var loaded = false

  func load() async {
    try? await Environment.current.continuousClock.sleep(for: .seconds(2))
    loaded = true
  }

  /// Sleeps three times in a row.
  func retry() async {
    for _ in 0..<3 {
      try? await Environment.current.continuousClock.sleep(for: .seconds(1))
    }
    loaded = true
  }

  nonisolated static let loadLine = 13
}

/// A test that awaits a task asleep on virtual time, past its last advance, would wait for ever:
/// only the test moves time (#42). The scope sees it stalled (its test waiting, every task asleep
/// on virtual time), moves time itself after a second of real time, and reports the wait at the
/// test's `await`.
@Suite struct StalledTestTests {
  private static let file = "EffectsTestSupportTests/StalledTestTests.swift"

  @Test func aTestAwaitingATaskAsleepOnVirtualTimeGoesOnAndIsToldWhere() async {
    let awaitLine = #line + 6
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        let loader = DelayedLoader()
        let loading = Task { await loader.load() }
        await scheduler.advance(by: .seconds(1))  // stops short of the load's sleep
        await loading.value
        #expect(await loader.loaded)
        #expect(scheduler.elapsed == .seconds(2))
      }
    }.issues
    #expect(issues.count == 1)
    // The patience is a second, five under the thread sanitizer.
    #expect(issues.first?.message.hasPrefix("The test waited here, and for .seconds(") == true)
    #expect(
      issues.first?.message.contains(
        """
        of real time nothing in its scope ran while a task slept on virtual time until .seconds(2) from the \
        scope's start (at
        """
      ) == true
    )
    #expect(issues.first?.message.contains("the scope moved time to .seconds(2) itself, and the test went on.") == true)
    #if os(Linux)
    #expect(issues.first?.line == awaitLine)
    #expect(issues.first?.message.contains("(at \(Self.file):\(DelayedLoader.loadLine))") == true)
    #endif
  }

  /// A task asleep until the end of virtual time never wakes, however far time moves: the scope
  /// ends its sleep as cancelled, leaves time where it was, and reports the wait at the `await`.
  @Test func aTestAwaitingATaskAsleepUntilTheEndOfVirtualTimeGoesOnAndIsToldWhy() async {
    let sleepLine = #line + 5
    let awaitLine = #line + 6
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        let waiting = Task {
          try await Environment.current.continuousClock.sleep(for: .seconds(Int64.max))
        }
        let outcome = await waiting.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(scheduler.elapsed == .zero)
      }
    }.issues
    #expect(issues.map(\.kind) == [.waitedOnVirtualTime])
    let message = issues.first?.message ?? ""
    #expect(message.hasPrefix("The test waited here, and for .seconds("))
    #expect(
      message.hasSuffix(
        """
        which never comes: no advance reaches it, so the test would have waited for ever. The scope cancelled \
        that task (its sleep threw CancellationError), and the test went on. Cancel a task that sleeps until it is \
        cancelled before the test awaits it.
        """
      )
    )
    #if os(Linux)
    #expect(issues.first?.line == awaitLine)
    #expect(message.contains("slept until the end of virtual time (at \(Self.file):\(sleepLine))"))
    #endif
  }

  /// The task is cancelled, not only its sleep: a loop that sleeps again until it is cancelled
  /// (it ignores the sleep's error) ends too, on the main actor as well.
  @Test @MainActor func aLoopSleepingUntilCancelledThatTheTestAwaitsIsCancelled() async {
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let waiting = Task { @MainActor in
          var sleeps = 0
          while !Task.isCancelled {
            sleeps += 1
            try? await Environment.current.continuousClock.sleep(for: .seconds(Int64.max))
          }
          return sleeps
        }
        #expect(await waiting.value == 1)
      }
    }.issues
    #expect(issues.map(\.kind) == [.waitedOnVirtualTime])
    #expect(issues.first?.message.contains("The scope cancelled that task (its sleep threw CancellationError)") == true)
  }

  @Test @MainActor func aMainActorTestAwaitingARetryingTaskGoesOnThroughEachSleep() async {
    let loader = DelayedLoader()
    let scheduler = TestScheduler()
    let awaitLine = #line + 4
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        let retrying = Task { await loader.retry() }
        await retrying.value
      }
    }.issues
    #expect(loader.loaded)
    #expect(scheduler.elapsed == .seconds(3))
    #expect(issues.count == 1)
    #expect(issues.first?.message.contains("and 2 more times as the wait went on") == true)
    #if os(Linux)
    #expect(issues.first?.line == awaitLine)
    #endif
  }

  /// A test in a real sleep of its own waits for real time, not for the scope: time is not moved
  /// under it (the adversary saw it moved, with a report that the test would have waited for
  /// ever), and only the real sleep is reported.
  @Test func aTestInItsOwnRealSleepIsNotMovedForward() async {
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        let sleeper = Task { try await Environment.current.continuousClock.sleep(for: .seconds(10)) }
        await scheduler.advance(by: .seconds(1))
        try? await Task.sleep(for: .milliseconds(1_500))  // on purpose: real time, longer than the patience
        #expect(scheduler.elapsed == .seconds(1))
        sleeper.cancel()
      }
    }.issues
    #expect(issues.count == 1)
    #expect(issues.first?.message.hasPrefix("The test itself started a real, wall-clock wait") == true)
  }

  /// A test that moves time itself is never stalled, however long its tasks take in real time.
  @Test func aTestThatAdvancesIsNotReported() async {
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        let loader = DelayedLoader()
        let loading = Task { await loader.load() }
        await scheduler.advance(by: .seconds(2))
        await loading.value
      }
    }.issues
    #expect(issues == [])
  }
}

/// A `withVirtualTime` inside a test's open scope opens none (#42): it hung a `@MainActor` test
/// whose own sleep it watched, and said the sleep ran "on an actor with its own executor". It is
/// reported at its line, and runs in the open scope on its scheduler.
@Suite struct NestedScopeTests {
  @MainActor @Test func aScopeInsideATraitScopeIsReportedAndTheTestGoesOnInTheOuterOne() async throws {
    let test = try #require(Test.current)
    let innerLine = #line + 5
    let sleepLine = #line + 5
    let sameScheduler = Locked(false)
    let issues = try await withCapturedIssues {
      try await VirtualTimeTrait.virtualTime.provideScope(for: test, testCase: Test.Case.current) {
        await withVirtualTime { scheduler in
          try? await Environment.current.continuousClock.sleep(for: .seconds(1))
          sameScheduler.withLock { $0 = scheduler === TestScheduler.current }
        }
      }
    }.issues
    #expect(sameScheduler.snapshot)
    #expect(issues.map(\.line) == [innerLine, sleepLine])
    #expect(
      issues.first?.message
        == VirtualTimeWording.nestedScope(outer: FailureLocation(test.sourceLocation), fresh: true)
    )
    #expect(issues.last?.message.hasPrefix("The test itself waited on virtual time, until .seconds(1)") == true)
    #expect(!issues.contains { $0.message.contains("actor with its own executor") })
  }
}
