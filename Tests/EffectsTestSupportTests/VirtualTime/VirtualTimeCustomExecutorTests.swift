import Dispatch
import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Testing

/// An actor with an executor of its own (a database actor on a queue), and a task that prefers
/// another task executor, run where no runtime hook sees their jobs, so a scope cannot wait for
/// them. That is never silent: the sleep says so, and so does every advance that wakes it; and
/// nothing hangs.
@Suite(.timeLimit(.minutes(1))) struct VirtualTimeCustomExecutorTests {
  @available(EffectsVirtualTime, *)
  @Test func anActorOnItsOwnQueueThatSleepsIsReportedAtItsSleepAndAtTheAdvanceThatWakesIt() async {
    var deviations: [String] = []
    for run in 0..<200 {
      let scheduler = TestScheduler()
      let database = Database()
      let advanceLine = #line + 5
      var saved = -1
      let issues = await withCapturedIssues {
        await scheduler.withVirtualTime {
          let task = Task { try await database.save(after: .seconds(1), on: scheduler) }
          await scheduler.advance(by: .seconds(1))
          saved = await database.saved
          task.cancel()
          _ = await task.result
        }
      }.issues
      if let deviation = deviation(issues, sleepLine: Database.sleepLine, advanceLine: advanceLine) {
        deviations.append("run \(run): saved \(saved), \(deviation)")
      }
    }
    #expect(deviations == [])
  }

  @available(EffectsVirtualTime, *)
  @Test func aTaskPreferringAnotherTaskExecutorThatSleepsIsReportedAtItsSleepAndAtTheAdvanceThatWakesIt() async {
    var deviations: [String] = []
    for run in 0..<200 {
      let scheduler = TestScheduler()
      let executor = QueueExecutor(label: "Preferred")
      let sleepLine = #line + 5
      let advanceLine = #line + 5
      var woke = false
      let issues = await withCapturedIssues {
        await scheduler.withVirtualTime {
          let task = Task(executorPreference: executor) { try await scheduler.sleep(for: .seconds(1)) }
          await scheduler.advance(by: .seconds(1))
          task.cancel()
          woke = (try? await task.value) != nil
        }
      }.issues
      // A task that woke was woken by the advance (a cancelled one throws): its report is due.
      if let deviation = deviation(issues, sleepLine: sleepLine, advanceLine: advanceLine, wokeByTheAdvance: woke) {
        deviations.append("run \(run): woke \(woke), \(deviation)")
      }
    }
    #expect(deviations == [])
  }

  /// What differs from the reports of a sleep off the scope's lanes: at the sleep, then at the
  /// advance that woke it. Whether the advance found the sleep (and woke it) depends on the
  /// queue's thread: each way is said, and the sleep's report comes first.
  private func deviation(
    _ issues: [CapturedIssue],
    sleepLine: Int,
    advanceLine: Int,
    wokeByTheAdvance: Bool = false
  ) -> String? {
    let atTheSleep = CapturedIssue(
      """
      A task of the virtual-time scope sleeps here from a thread outside the scope — on an actor with its own \
      executor (a SerialExecutor of its own, such as a database actor on a DispatchQueue), or under another task \
      executor — where the scope cannot count its jobs: an advance cannot tell when it gets here, nor wait for it \
      after waking it, so what the test sees can depend on timing. In tests, run such code on the default executors \
      (inject the executor), or await its result instead of advancing past it.
      """,
      line: sleepLine
    )
    let atTheAdvance = CapturedIssue(
      """
      await TestScheduler.advance(by:) resumed a task sleeping since EffectsTestSupportTests/\
      VirtualTimeCustomExecutorTests.swift:\(sleepLine) that runs outside the scope — on an actor with its own \
      executor, or under another task executor — where the scope cannot count its jobs, so it returned without \
      waiting for it: a check after this line can flake. In tests, run such code on the default executors (inject \
      the executor), or await its result instead of advancing past it.
      """,
      line: advanceLine
    )
    if issues == [atTheSleep, atTheAdvance] || (issues == [atTheSleep] && !wokeByTheAdvance) { return nil }
    return "issues \(issues)"
  }
}

/// A database actor on a queue of its own.
@available(EffectsVirtualTime, *)
private actor Database {
  static let sleepLine = #line + 9
  private let executor = QueueExecutor(label: "Database")
  private(set) var saved = 0

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  func save(after delay: Duration, on scheduler: TestScheduler) async throws {
    try await scheduler.sleep(for: delay)
    saved += 1
  }
}
