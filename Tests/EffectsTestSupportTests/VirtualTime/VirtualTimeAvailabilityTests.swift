import Effects
import EffectsTestHelpers
@testable import EffectsTestSupport
import Testing

/// Where exact virtual time cannot work, or works with a check missing, a scope says so in plain
/// words, at its line: each condition is forced here (the runtime on this machine has everything),
/// for the scopes of one test only.
@Suite struct VirtualTimeAvailabilityTests {
  private static let stillWorks = """
    The operation runs without virtual time: scheduled callbacks, advanceSynchronously(by:), \
    recorders and stubs work as everywhere, but an await advance(by:) cannot wait for the tasks it wakes \
    (it reports each one it resumes).
    """

  @Test func aRuntimeWithoutTheHooksIsReportedOnceAtTheScopeAndTheOperationStillRuns() async {
    let forced = RuntimeDoor.Forced(
      runtimeUnavailable: "this concurrency runtime does not export swift_task_getMainExecutor_hook"
    )
    let scheduler = TestScheduler()
    let ticks = Spy<Void, Void>("tick")
    let scopeLine = #line + 3
    let issues = await RuntimeDoor.$forced.withValue(forced) {
      await withCapturedIssues {
        await scheduler.withVirtualTime {
          // Callbacks are exact without a scope.
          scheduler.schedule(after: .seconds(1)) { try? ticks() }
          await scheduler.advance(by: .seconds(1))
        }
      }.issues
    }
    ticks.assertCalls(count: 1)
    #expect(
      issues == [
        CapturedIssue(
          """
          withVirtualTime cannot keep virtual time exact here: this concurrency runtime does not export \
          swift_task_getMainExecutor_hook; exact virtual time needs the Swift 6.1 concurrency runtime or later \
          (macOS 15.4, iOS 18.4, tvOS 18.4, watchOS 11.4, visionOS 2.4). Run virtual-time tests on a newer OS or \
          simulator. \(Self.stillWorks)
          """,
          line: scopeLine
        )
      ]
    )
  }

  /// An OS older than the engine cannot be forced here (the check is the compiler's
  /// `#available`); what a scope says there is pinned.
  @Test func anOldOperatingSystemIsNamedWithTheVersionsThatWork() {
    #expect(
      VirtualTimeAvailability.operatingSystemTooOld == """
        withVirtualTime cannot keep virtual time exact here: it needs macOS 15.4, iOS 18.4, tvOS 18.4, watchOS 11.4 \
        or visionOS 2.4 or later, and this is Linux. Run virtual-time tests on a newer OS or simulator. \
        \(Self.stillWorks)
        """
    )
  }

  @available(EffectsVirtualTime, *)
  @Test func theRuntimeHasEverythingAScopeNeeds() async {
    // This runtime has every hook and function a scope needs, laid out as the door knows.
    let findings = await RuntimeDoor.selfTest(driver: ScopeTasks.currentTaskJob, forcing: [])
    #expect(findings == RuntimeDoor.Findings())
    #expect(findings.cannotOpen == nil && findings.degraded == nil)
  }

  @Test func anUnreadableTaskLayoutIsSaidAtTheScope() async {
    let scheduler = TestScheduler()
    let scopeLine = #line + 3
    let issues = await RuntimeDoor.$forced.withValue(.init(taskStatusUnreadable: true)) {
      await withCapturedIssues {
        await scheduler.withVirtualTime {
          let task = Task { try await scheduler.sleep(for: .seconds(1)) }
          await scheduler.advance(by: .seconds(1))
          try? await task.value
        }
      }.issues
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          withVirtualTime cannot read task status on this concurrency runtime (its task layout is not one this \
          library knows), so the end of a scope no longer reports unstructured tasks that did not end, nor tasks \
          that ignore cancellation. Work left on the TestScheduler is still reported. Said once per test process.
          """,
          line: scopeLine
        )
      ]
    )
  }

  @Test func eachWarningIsSaidOnceAndTheScopesAfterItAreQuiet() async {
    let scheduler = TestScheduler()
    let scopeLine = #line + 6
    let issues = await RuntimeDoor.$forced.withValue(
      .init(taskStatusUnreadable: true, realSleepsUnseen: true)
    ) {
      await withCapturedIssues {
        for _ in 0..<3 {
          await scheduler.withVirtualTime {
            await scheduler.advance()
          }
        }
      }.issues
    }
    // One warning of each kind, from the first of the three scopes.
    #expect(
      issues == [
        CapturedIssue(VirtualTimeAvailability.taskStatusUnreadable, line: scopeLine),
        CapturedIssue(VirtualTimeAvailability.realSleepsUnseen, line: scopeLine),
      ]
    )
  }

  @Test func withAnUnreadableTaskLayoutATaskLeftSuspendedIsNotClaimedToBeChecked() async {
    let scheduler = TestScheduler()
    let (stream, input) = AsyncStream<Int>.makeStream()
    let issues = await RuntimeDoor.$forced.withValue(.init(taskStatusUnreadable: true)) {
      await withCapturedIssues {
        await scheduler.withVirtualTime {
          Task { for await _ in stream {} }  // never ends in the scope: not seen without task status
          await scheduler.advance()
        }
      }.issues
    }
    input.finish()
    // Only the warning: the leftover task goes unreported, as the warning says.
    #expect(issues.count == 1)
    #expect(issues.first?.message.hasPrefix("withVirtualTime cannot read task status") == true)
  }

  @Test func unseenRealSleepsAreSaidAtTheScope() async {
    let scheduler = TestScheduler()
    let scopeLine = #line + 3
    let issues = await RuntimeDoor.$forced.withValue(.init(realSleepsUnseen: true)) {
      await withCapturedIssues {
        await scheduler.withVirtualTime {
          await scheduler.advance()
        }
      }.issues
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          withVirtualTime cannot see real sleeps here: on this concurrency runtime (Swift 6.3 and later: macOS, iOS, \
          tvOS, watchOS and visionOS 26.4) Task.sleep no longer passes the delay hooks, and this build, made with a \
          Swift compiler older than 6.3, lacks the detector that replaces them. A Task.sleep in code under test still \
          waits in real time, but is not reported. Build the tests with Swift 6.3 or later to have them reported. Said \
          once per test process.
          """,
          line: scopeLine
        )
      ]
    )
  }

  @Test func thisBuildSeesRealSleeps() {
    #expect(!RuntimeDoor.realSleepsGoUnseen)
  }
}
