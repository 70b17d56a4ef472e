import Effects
import EffectsTestHelpers
import EffectsTestSupport
import XCTest

/// In XCTest every report of the library lands on a line of the test's own code, where Swift
/// Testing places it too — never in a file of this package. (The live read and the unimplemented
/// read are in `LiveInTestXCTests` and `ReportingXCTests`.)
final class XCTestPlacementXCTests: FailureCapturingTestCase {
  private static let file = "/Tests/EffectsTestSupportTests/Reporting/XCTestPlacementXCTests.swift"

  func testTheCurrentSchedulerReadOutsideAScopeIsPlacedAtTheRead() throws {
    try XCTSkipUnless(readSitesAreFound, "this platform does not find read sites on the stack")
    let line = #line + 1
    let failures = capturingFailures { _ = TestScheduler.current }
    XCTAssertEqual(failures.map(\.line), [line])
    XCTAssertEqual(failures.map { $0.file.hasSuffix(Self.file) }, [true])
    XCTAssertEqual(
      failures.map(\.message),
      [
        """
        TestScheduler.current was read outside a virtual-time scope, so there is no test scheduler to answer; \
        here is a new one that nothing else uses. Mark the test @Test(.virtualTime) (or its suite \
        @Suite(.virtualTime)), or wrap its body in withVirtualTime { scheduler in … }.
        """
      ]
    )
  }

  func testWorkLeftAtTheEndOfAScopeIsPlacedAtTheLineThatScheduledIt() async {
    let scopeLine = #line + 2
    let failures = await capturingAsyncFailures {
      await withVirtualTime { scheduler in
        _ = scheduler.schedule(after: .seconds(1)) {}
      }
    }
    XCTAssertEqual(failures.map(\.line), [scopeLine + 1])
    XCTAssertEqual(failures.map { $0.file.hasSuffix(Self.file) }, [true])
    XCTAssertEqual(
      failures.map(\.message),
      [
        """
        withVirtualTime at EffectsTestSupportTests/XCTestPlacementXCTests.swift:\(scopeLine) ended with work scheduled \
        here still pending (due at .seconds(1); virtual time was .seconds(0)). It was cancelled. Advance time past it \
        (advance(by:), run()) before the scope ends, or cancel it; if the test means to leave it, open the scope with \
        leftoverWork: .expected.
        """
      ]
    )
  }

  /// A sleep on the environment's clock names no line of its own: it is placed at the line that
  /// awaited it, found on the sleeping task (where stacks are symbolicated), as in Swift Testing.
  func testATaskLeftAsleepOnTheEnvironmentsClockIsPlacedAtTheLineThatSlept() async throws {
    try XCTSkipUnless(readSitesAreFound, "this platform does not find read sites on the stack")
    let scopeLine = #line + 2
    let failures = await capturingAsyncFailures {
      await withVirtualTime { scheduler in
        Task { try await Environment.current.continuousClock.sleep(for: .seconds(2)) }
        await scheduler.advance(by: .seconds(1))
      }
    }
    XCTAssertEqual(failures.map(\.line), [scopeLine + 1])
    XCTAssertEqual(failures.map { $0.file.hasSuffix(Self.file) }, [true])
    XCTAssertEqual(
      failures.map(\.message),
      [
        """
        withVirtualTime at EffectsTestSupportTests/XCTestPlacementXCTests.swift:\(scopeLine) ended with a task \
        sleeping here on environment.continuousClock still pending (due at .seconds(2); virtual time was \
        .seconds(1)). It got CancellationError. Advance time past the sleep before the scope ends, or cancel the \
        task; if the test means to leave it, open the scope with leftoverWork: .expected.
        """
      ]
    )
  }

  /// The test's own sleep on its clock, which nothing else would end, is placed at that line.
  func testTheTestsOwnSleepOnItsClockIsPlacedAtItsLine() async throws {
    try XCTSkipUnless(readSitesAreFound, "this platform does not find read sites on the stack")
    let sleepLine = #line + 3
    let failures = await capturingAsyncFailures {
      await withVirtualTime { _ in
        try? await Environment.current.continuousClock.sleep(for: .seconds(2))
      }
    }
    XCTAssertEqual(failures.map(\.line), [sleepLine])
    XCTAssertEqual(failures.map { $0.file.hasSuffix(Self.file) }, [true])
    XCTAssertEqual(
      failures.map { $0.message.hasPrefix("The test itself waited on virtual time, until .seconds(2)") },
      [true]
    )
  }

  /// The test's own real sleep is placed at its line, with advancing as the fix.
  func testTheTestsOwnRealSleepIsPlacedAtItsLine() async throws {
    try XCTSkipUnless(readSitesAreFound, "this platform does not find read sites on the stack")
    let sleepLine = #line + 3
    let failures = await capturingAsyncFailures {
      await withVirtualTime { scheduler in
        try? await Task.sleep(for: .milliseconds(20))
        await scheduler.advance()
      }
    }
    XCTAssertEqual(failures.map(\.line), [sleepLine])
    XCTAssertEqual(failures.map { $0.file.hasSuffix(Self.file) }, [true])
    XCTAssertEqual(
      failures.map { $0.message.hasPrefix("The test itself started a real, wall-clock wait of about .milliseconds(") },
      [true]
    )
    XCTAssertEqual(
      failures.map { $0.message.contains("advance instead: await TestScheduler.current.advance(by:)") },
      [true]
    )
  }

  /// A scope with callbacks only is driven exactly by the synchronous form: nothing to report (the
  /// *Testing with XCTest* article says so).
  func testASynchronousAdvanceInAScopeWithOnlyCallbacksSaysNothing() async {
    let ran = Locked(false)
    let failures = await capturingAsyncFailures {
      await withVirtualTime { scheduler in
        scheduler.schedule(after: .seconds(1)) { ran.withLock { $0 = true } }
        func advanceFromSynchronousCode() { scheduler.advanceSynchronously(by: .seconds(1)) }
        advanceFromSynchronousCode()
      }
    }
    XCTAssertEqual(failures, [])
    XCTAssertTrue(ran.snapshot)
  }

}

/// A live read in `setUp`, before the test method sets anything, is placed at the read and says it
/// was in `setUp`, and how to give the whole case an environment.
final class SetUpLiveReadXCTests: FailureCapturingTestCase {
  private var setUpFailures: [Failure] = []
  private var readLine = 0

  override func setUp() {
    readLine = #line + 1
    setUpFailures = capturingFailures { _ = Environment.current.clock }
  }

  func testALiveReadInSetUpSaysItWasInSetUp() throws {
    try XCTSkipUnless(readSitesAreFound, "this platform does not find read sites on the stack")
    XCTAssertEqual(setUpFailures.map(\.line), [readLine])
    XCTAssertEqual(
      setUpFailures.map(\.message),
      [
        """
        Environment.current.clock was read in a test, but no environment was set for this test, so it answered \
        the live SystemClock. A test should control what it reads and where its effects go: run it with \
        @Test(.environment(.test())) or inside withEnvironment(.test()) { … }, or set environment.clock. To use the \
        real world on purpose (an integration test), say so: withEnvironment(.live) { … } or \
        @Test(.environment(.live)). It was read in setUp(), which runs before the test method, outside the \
        environment and the scope the method sets. Give the whole case a test environment: override invokeTest() { \
        withEnvironment(.test(scheduler: scheduler)) { super.invokeTest() } }, and open each method's scope with \
        scheduler.withVirtualTime { … } (the article Testing with XCTest).
        """
      ]
    )
  }
}
