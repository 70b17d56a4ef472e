import Effects
import Foundation
import Testing

@testable import EffectsTestSupport

/// How many jobs a scope queues for an awaited step: the work the step resumes, and nothing for the
/// test's own calls. A main-actor test's hops between its own functions (into `advance`, and
/// back) run in place; when they were queued on the main lane instead, each awaited step cost
/// three jobs, and a wake-up of the main queue's thread each time it had gone idle.
@Suite struct VirtualTimeJobCountTests {
  /// The jobs the scope queues for `steps` awaited advances that each run one callback.
  @available(EffectsVirtualTime, *)
  @MainActor private static func jobsForCallbackSteps(_ steps: Int, on scheduler: TestScheduler) async -> UInt64 {
    let ran = Locked(0)
    for step in 1...steps {
      scheduler.schedule(after: .milliseconds(step)) { ran.withLock { $0 += 1 } }
    }
    // The test's own move onto the main actor, as the scope opened, may still be finishing on
    // the serial lane: let it settle first.
    await scheduler.advance(by: .zero)
    let before = VirtualExecutor.current?.jobsQueued ?? .max
    for _ in 1...steps {
      await scheduler.advance(by: .milliseconds(1))
    }
    #expect(ran.withLock { $0 } == steps)
    return (VirtualExecutor.current?.jobsQueued ?? 0) &- before
  }

  @available(EffectsVirtualTime, *)
  @MainActor @Test func aMainActorTestsAwaitedCallbackStepQueuesNoJob() async {
    await withVirtualTime { _ in
      #expect(await Self.jobsForCallbackSteps(100, on: TestScheduler.current) == 0)
    }
    let scheduler = TestScheduler()
    await scheduler.withVirtualTime {
      #expect(await Self.jobsForCallbackSteps(100, on: scheduler) == 0)
    }
  }

  /// The trait opens the scope from a nonisolated context, so the test prefers the serial lane as
  /// its task executor, and runs on the main actor all the same.
  @available(EffectsVirtualTime, *)
  @MainActor @Test(.virtualTime) func aMainActorTestWithTheTraitQueuesNoJobForAnAwaitedCallbackStep() async {
    let jobs = await Self.jobsForCallbackSteps(100, on: TestScheduler.current)
    #expect(jobs == 0)
  }

  /// The jobs the scope queues for each of `steps` awaited advances that each resume a main-actor
  /// task sleeping on `scheduler`.
  @available(EffectsVirtualTime, *)
  @MainActor private static func jobsForSleeperSteps(
    _ steps: Int,
    on scheduler: TestScheduler,
    sleep: @escaping @MainActor () async throws -> Void
  ) async -> [UInt64] {
    let ticking = Task { @MainActor in
      for _ in 0...steps {
        try await sleep()
      }
    }
    await scheduler.advance(by: .milliseconds(1))
    var counts: [UInt64] = []
    for _ in 1...steps {
      let before = VirtualExecutor.current?.jobsQueued ?? 0
      await scheduler.advance(by: .milliseconds(1))
      counts.append((VirtualExecutor.current?.jobsQueued ?? 0) - before)
    }
    _ = await ticking.result
    return counts
  }

  /// Four jobs a step, all on the main lane, on every step: the sleeper's resumption and its turn,
  /// then the test's. The resumptions, which the runtime sends to the generic executor first,
  /// used to go to the serial lane, and the test sometimes went on before the lane had counted
  /// its hop done: its next step then waited for the lane, two jobs more.
  @available(EffectsVirtualTime, *)
  @MainActor @Test func aMainActorSleeperCostsTheSameJobsOnEveryStep() async {
    await withVirtualTime { _ in
      let scheduler = TestScheduler.current
      let counts = await Self.jobsForSleeperSteps(200, on: scheduler) {
        try await scheduler.sleep(for: .milliseconds(1))
      }
      #expect(Set(counts) == [4], "\(counts)")
    }
  }

  @available(EffectsVirtualTime, *)
  @MainActor @Test(.virtualTime) func withTheTraitTooAMainActorSleeperCostsTheSameJobsOnEveryStep() async {
    let scheduler = TestScheduler.current
    let counts = await Self.jobsForSleeperSteps(200, on: scheduler) {
      try await scheduler.sleep(for: .milliseconds(1))
    }
    #expect(Set(counts) == [4], "\(counts)")
  }

  /// `DurationClock.sleep(for:)` stays on its caller's actor, as the scheduler's sleep does, in a
  /// test's environment and in a recorded one: the same four jobs a step, none on the serial lane.
  /// (`Clock`'s own `sleep(for:)`, which code generic over `Clock` calls, hops off the main actor
  /// and back: more jobs, and a varying number of them.)
  @available(EffectsVirtualTime, *)
  @MainActor @Test func aMainActorSleeperOnTheContinuousClockCostsTheSameJobsOnEveryStep() async {
    await withVirtualTime { _ in
      let clock = Environment.current.continuousClock
      let counts = await Self.jobsForSleeperSteps(200, on: TestScheduler.current) {
        try await clock.sleep(for: .milliseconds(1))
      }
      #expect(Set(counts) == [4], "\(counts)")
    }
    let log = CallLog()
    await withEnvironment(Environment.test().recording(into: log)) {
      await withVirtualTime { _ in
        let clock = Environment.current.continuousClock
        let counts = await Self.jobsForSleeperSteps(200, on: TestScheduler.current) {
          try await clock.sleep(for: .milliseconds(1))
        }
        #expect(Set(counts) == [4], "\(counts)")
      }
    }
    #expect(log.entries.count == 201)
  }

  /// The scope's serial lane starts its thread with its first job: a `@MainActor` test whose
  /// tasks all stay on the main actor never starts one; a nonisolated task, or a resumption on
  /// the generic executor, starts it.
  @available(EffectsVirtualTime, *)
  @MainActor @Test func theSerialLanesThreadStartsWithItsFirstJob() async {
    await withVirtualTime { _ in
      let clock = Environment.current.continuousClock
      let ticking = Task { @MainActor in try await clock.sleep(for: .seconds(1)) }
      await TestScheduler.current.advance(by: .seconds(1))
      #expect(VirtualExecutor.current?.isLaneStarted == false)
      // Awaiting a task's end resumes the test on the generic executor first, which is the
      // serial lane's.
      _ = await ticking.result
      #expect(VirtualExecutor.current?.isLaneStarted == true)
    }
    await withVirtualTime { _ in
      #expect(VirtualExecutor.current?.isLaneStarted == false)
      await Task.detached { await Task.yield() }.value
      #expect(VirtualExecutor.current?.isLaneStarted == true)
    }
  }

  /// The tasks a scope lets go of are freed on its serial lane (see `VirtualTimeScopeEndTests`),
  /// which starts for them in a `@MainActor` test whose tasks all ran on the main actor.
  @available(EffectsVirtualTime, *)
  @MainActor @Test func lettingGoOfEndedTasksStartsTheSerialLane() async {
    let lock = NSLock()
    let freed = Recorder<Int>()
    await withVirtualTime { _ in
      for index in 0..<1_023 {
        Task { @MainActor in TakesALockWhenFreed(lock, index: index, freed: freed) }
        await TestScheduler.current.advance()
      }
      #expect(VirtualExecutor.current?.isLaneStarted == false)
      // The 1,024th task makes the scope let go of the first 1,023, while this lock is held.
      _ = startTask(holding: lock)
      await TestScheduler.current.advance()
      #expect(VirtualExecutor.current?.isLaneStarted == true)
      #expect(freed.values == Array(0..<1_023))
    }
  }
}
