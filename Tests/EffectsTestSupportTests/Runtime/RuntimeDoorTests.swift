import Effects
import EffectsTestHelpers
import Foundation
import Testing

@testable import EffectsTestSupport

/// The runtime door's self-test: every assumption of its table holds on this runtime, and each one
/// forced broken is reported in plain words, at the scope, once, with the scope still working as
/// far as it can.
@Suite struct RuntimeDoorTests {
  private static let file = "EffectsTestSupportTests/RuntimeDoorTests.swift"

  /// A scope whose task sleeps 1 s, advanced 1 s: the work a degraded scope must still do exactly.
  @available(EffectsVirtualTime, *)
  private static func sleepAndAdvance(
    forcing broken: Set<RuntimeDoor.Assumption>
  ) async -> (issues: [CapturedIssue], woke: Bool, scopeLine: Int) {
    let scheduler = TestScheduler()
    let woke = Locked(false)
    let scopeLine = #line + 3
    let issues = await RuntimeDoor.$forced.withValue(.init(brokenAssumptions: broken)) {
      await withCapturedIssues {
        await scheduler.withVirtualTime {
          let task = Task {
            try await Environment.current.continuousClock.sleep(for: .seconds(1))
            woke.withLock { $0 = true }
          }
          await scheduler.advance(by: .seconds(1))
          try? await task.value
        }
      }.issues
    }
    return (issues, woke.snapshot, scopeLine)
  }

  @available(EffectsVirtualTime, *)
  @Test func everyAssumptionHoldsOnThisRuntime() async throws {
    let findings = await RuntimeDoor.selfTest(driver: ScopeTasks.currentTaskJob, forcing: [])
    #expect(findings.broken == [])
    #expect(findings.missing == [])
    #expect(RuntimeDoor.readsTaskLocalsDirectly)
    #expect(RuntimeDoor.durationIsTwoWords)
    #expect(RuntimeDoor.demanglerWorks)
  }

  /// Each assumption whose failure leaves the scope working is said once, at the scope's line, in
  /// the words of the table; the scope's sleeper still wakes at its instant.
  @available(EffectsVirtualTime, *)
  @Test(arguments: RuntimeDoor.Assumption.degradable)
  func aDegradableAssumptionBrokenIsSaidAtTheScopeAndTheScopeStillWorks(_ assumption: RuntimeDoor.Assumption) async {
    let (issues, woke, scopeLine) = await Self.sleepAndAdvance(forcing: [assumption])
    #expect(woke)
    let expected = """
      withVirtualTime checked the Swift runtime it runs on, and one thing differs from the runtimes this library \
      knows. Virtual time stays exact; what changes:
      - \(RuntimeDoor.consequence(of: assumption))
      Said once per test process.
      """
    #expect(issues.first == CapturedIssue(expected, line: scopeLine))
    #expect(issues.first.map { $0.fileID == Self.file } == true)
    #expect(issues.count == 1, "\(issues)")
  }

  @Test func eachConsequenceIsWordedAsTheTableSaysIt() {
    #expect(
      RuntimeDoor.Assumption.degradable.map(RuntimeDoor.consequence(of:)) == [
        """
        a suspended task's async frames are not laid out as this library knows, so a report of a sleeping or \
        suspended task names the scope's line, not the line where the task waits.
        """,
        """
        swift_task_localValueGet does not answer what TaskLocal.get() answers, so the scope is read with get() on \
        each hop to the main actor (slower, as exact).
        """,
        """
        Duration is not laid out as two words of attoseconds, so the scheduler's keys are made from \
        Duration.components (slower, as exact).
        """,
        """
        swift_demangle is missing or answers wrong, so a read inside an extension an app adds to this library's \
        types is placed at the next line of the code under test, and a read in XCTest's setUp() is not said to be \
        in setUp().
        """,
      ]
    )
  }

  /// Several broken at once: one report, every consequence listed in the table's order.
  @available(EffectsVirtualTime, *)
  @Test func severalBrokenAreOneReport() async {
    let (issues, woke, _) = await Self.sleepAndAdvance(forcing: [.demangler, .durationWords])
    #expect(woke)
    #expect(issues.count == 1)
    #expect(
      issues.first?.message == """
        withVirtualTime checked the Swift runtime it runs on, and 2 things differ from the runtimes this library \
        knows. Virtual time stays exact; what changes:
        - \(RuntimeDoor.consequence(of: .durationWords))
        - \(RuntimeDoor.consequence(of: .demangler))
        Said once per test process.
        """
    )
  }

  /// What stops a scope is said at its line, and the operation runs without virtual time.
  @available(EffectsVirtualTime, *)
  @Test(arguments: [
    (
      RuntimeDoor.Assumption.functions,
      """
      this concurrency runtime's swift_task_getCurrent or swift_task_getJobTaskId does not answer the running task \
      as this library knows it
      """
    ),
    (.hooks, "this concurrency runtime's hooks are not the ones this library knows"),
    (
      .jobFlags,
      """
      this concurrency runtime's job layout is not one this library knows (the running task's flags do not say it \
      is a task), so the scope could not tell its tasks from other jobs
      """
    ),
  ])
  func anAssumptionAScopeNeedsBrokenStopsTheScopeAtItsLine(_ assumption: RuntimeDoor.Assumption, reason: String) async {
    let scheduler = TestScheduler()
    let ticks = Locked(0)
    let scopeLine = #line + 3
    let issues = await RuntimeDoor.$forced.withValue(.init(brokenAssumptions: [assumption])) {
      await withCapturedIssues {
        await scheduler.withVirtualTime {
          scheduler.schedule(after: .seconds(1)) { ticks.withLock { $0 += 1 } }
          await scheduler.advance(by: .seconds(1))
        }
      }.issues
    }
    #expect(ticks.snapshot == 1, "callbacks are exact without a scope")
    #expect(issues == [CapturedIssue(VirtualTimeAvailability.unknownRuntime(reason), line: scopeLine)])
    #expect(
      VirtualTimeAvailability.unknownRuntime("X") == """
        withVirtualTime cannot keep virtual time exact here: X. This version of swift-effects does not know this \
        runtime's layout, so it cannot own the scope's tasks safely: update swift-effects (this runtime is newer than \
        the ones it was checked on). The operation runs without virtual time: scheduled callbacks, \
        advanceSynchronously(by:), recorders and stubs work as everywhere, but an await advance(by:) cannot wait for \
        the tasks it wakes (it reports each one it resumes).
        """
    )
  }

  /// Broken task status is the warning the end of a scope has always given, once.
  @available(EffectsVirtualTime, *)
  @Test func brokenTaskStatusIsTheTaskStatusWarning() async {
    let (issues, woke, scopeLine) = await Self.sleepAndAdvance(forcing: [.taskStatus])
    #expect(woke)
    #expect(issues == [CapturedIssue(VirtualTimeAvailability.taskStatusUnreadable, line: scopeLine)])
  }

  /// Broken async contexts: a task left asleep is reported at the scope, not at its sleep.
  @available(EffectsVirtualTime, *)
  @Test func withBrokenAsyncContextsASleeperLeftIsPlacedAtTheScope() async {
    let scheduler = TestScheduler()
    let scopeLine = #line + 3
    let issues = await RuntimeDoor.$forced.withValue(.init(brokenAssumptions: [.asyncContexts])) {
      await withCapturedIssues {
        await scheduler.withVirtualTime {
          Task { try await Environment.current.continuousClock.sleep(for: .seconds(5)) }
          await scheduler.advance(by: .seconds(1))
        }
      }.issues
    }
    #expect(issues.count == 2, "\(issues)")
    #expect(issues.map(\.line) == [scopeLine, scopeLine])
    #expect(issues.last?.message.contains("sleeping on environment.continuousClock") == true, "\(issues)")
  }

  /// A first scope opened by a task whose priority was escalated (its status's priority above its
  /// job's) still finds the status; a lower one, a complete task or a disagreement on
  /// cancellation does not.
  @Test func aStatusWordIsRecognisedWhateverTheEscalation() {
    let jobFlags: UInt32 = 0x15 << 8  // priority .medium (21), kind 0 (a task)
    #expect(RuntimeDoor.isStatus(0x15, ofJobFlags: jobFlags, cancelled: false))
    #expect(RuntimeDoor.isStatus(0x19, ofJobFlags: jobFlags, cancelled: false), "escalated to .high")
    #expect(RuntimeDoor.isStatus(0x19 | 0x100, ofJobFlags: jobFlags, cancelled: true))
    #expect(!RuntimeDoor.isStatus(0x09, ofJobFlags: jobFlags, cancelled: false), "below the job's priority")
    #expect(!RuntimeDoor.isStatus(0x15 | 0x2000, ofJobFlags: jobFlags, cancelled: false), "complete")
    #expect(!RuntimeDoor.isStatus(0x15, ofJobFlags: jobFlags, cancelled: true), "the runtime says cancelled")
    #expect(!RuntimeDoor.isStatus(0, ofJobFlags: jobFlags, cancelled: false))
  }

  @Test func withABrokenDemanglerNoNameIsDemangled() {
    #expect(ReadSite.demangle("$sSiD") == "Swift.Int")
    RuntimeDoor.$forced.withValue(.init(brokenAssumptions: [.demangler])) {
      #expect(ReadSite.demangle("$sSiD") == nil)
    }
  }

  /// The fallback for a `Duration` of another layout gives the same words and the same durations,
  /// over every value `components` can spell (±`Int64.max` seconds).
  @Test func durationsFromComponentsAgreeWithTheirWords() {
    var generator = SystemRandomNumberGenerator()
    var samples: [Duration] = [
      .zero, .nanoseconds(1), .nanoseconds(-1), .seconds(Int64.max), .seconds(Int64.min),
      Duration(secondsComponent: Int64.max, attosecondsComponent: 999_999_999_999_999_999),
      Duration(secondsComponent: Int64.min, attosecondsComponent: -999_999_999_999_999_999),
    ]
    for _ in 0..<10_000 {
      samples.append(
        Duration(
          secondsComponent: Int64.random(in: .min ... .max, using: &generator),
          attosecondsComponent: Int64.random(in: -999_999_999_999_999_999...999_999_999_999_999_999, using: &generator)
        )
      )
    }
    let mismatches = samples.filter { sample in
      let words = RuntimeDoor.attoseconds(sample)
      let read = RuntimeDoor.attosecondWords(of: sample)
      let fallback = RuntimeDoor.attosecondWords(of: sample, twoWords: false)
      return words != read || fallback != read
        || RuntimeDoor.duration(attosecondWords: words, twoWords: false) != sample
        || RuntimeDoor.duration(attosecondWords: words) != sample
    }
    #expect(mismatches == [])
  }

  /// The direct read of a task-local answers what `get()` answers: unbound, bound, nested, in a
  /// child task, in a detached task and on a thread.
  @Test func aTaskLocalReadDirectlyAgreesWithGet() async {
    final class Box: Sendable {}
    enum Key { @TaskLocal static var box: Box? }
    @Sendable func both() -> (direct: Box?, checked: Box?, object: Box?) {
      let direct = RuntimeDoor.bound(Key.$box)
      let object = RuntimeDoor.withBoundObject(Key.$box) { $0 }
      // The fallback, as a runtime whose storage the self-test did not trust reads it.
      let fallback = RuntimeDoor.bound(Key.$box, direct: false)
      let fallbackObject = RuntimeDoor.withBoundObject(Key.$box, direct: false) { $0 }
      return (direct, fallback === Key.box && fallbackObject === Key.box ? Key.box : Box(), object)
    }
    let outer = Box()
    let inner = Box()
    let seen = await Key.$box.withValue(outer) {
      await Key.$box.withValue(inner) {
        let child = await Task { both() }.value
        let detached = await Task.detached { both() }.value
        let thread = await withCheckedContinuation { continuation in
          Thread { continuation.resume(returning: both()) }.start()
        }
        return [both(), child, detached, thread]
      }
    }
    #expect(
      seen.map { $0.direct.map(ObjectIdentifier.init) }
        == [inner, inner, nil, nil].map { $0.map(ObjectIdentifier.init) }
    )
    #expect(seen.allSatisfy { $0.direct === $0.checked && $0.object === $0.checked })
    #expect(both().direct == nil && both().object == nil)
  }
}
