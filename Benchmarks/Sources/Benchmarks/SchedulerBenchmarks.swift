import Dispatch
import Effects
import EffectsTestSupport

/// "TestScheduler: schedule + run N callbacks at random deadlines": ≤ 100 ns per callback at
/// N = 10,000, ≤ 250 ns at N = 1,000,000. Deadlines are random (seeded) within one hour.
func schedulerCallbacks(count: Int) -> Benchmark {
  let targets: [Int: Double] = [10_000: 100, 1_000_000: 250]
  return Benchmark(
    "TestScheduler: schedule + run N callbacks at random deadlines (N = \(count))",
    operations: count,
    target: targets[count]
  ) {
    var generator = SeededGenerator(seed: 42)
    let delays = (0..<count).map { _ in Duration.nanoseconds(Int64.random(in: 0..<3_600_000_000_000, using: &generator))
    }
    let scheduler = TestScheduler(maxRuns: .max)
    let counter = Counter()
    return {
      for delay in delays {
        scheduler.schedule(after: delay) { counter.increment() }
      }
      scheduler.run()
      precondition(counter.value == count)
      blackHole(scheduler)
    }
  }
}

/// A counter callbacks can bump without a lock: the scheduler runs them one at a time on the
/// benchmark's thread.
final class Counter: @unchecked Sendable {
  private(set) var value = 0
  func increment() { value += 1 }
}

/// "TestScheduler: N async sleepers resumed by `advance`": ≤ 5 µs per sleeper at N = 10,000.
/// Inside `withVirtualTime`, N tasks each sleep a different number of milliseconds; one
/// `await advance(by:)` resumes them all, waiting for each to finish before the next deadline.
/// (The time includes starting the tasks and opening the scope.)
func schedulerSleepers(count: Int) -> Benchmark {
  Benchmark(
    "TestScheduler: N async sleepers resumed by advance (N = \(count))",
    operations: count,
    target: count == 10_000 ? 5_000 : nil
  ) {
    {
      let scheduler = TestScheduler(maxRuns: .max)
      let counter = Counter()
      blockUntilDone {
        await scheduler.withVirtualTime {
          for index in 0..<count {
            Task {
              try await scheduler.sleep(for: .milliseconds(index + 1))
              counter.increment()
            }
          }
          await scheduler.advance(by: .milliseconds(count))
        }
      }
      precondition(counter.value == count)
    }
  }
}

/// "TestScheduler: N async steps from @MainActor": a `@MainActor` task sleeps 1 ms N times and
/// counts; a `@MainActor` driver advances by 1 ms N times, so each step is one
/// `await advance(by:)` that resumes one main-actor sleeper and waits for it to count.
func schedulerMainActorSteps(count: Int) -> Benchmark {
  Benchmark("TestScheduler: async advance steps from @MainActor (N = \(count))", operations: count) {
    { blockUntilDone { await mainActorSteps(count) } }
  }
}

@MainActor private final class Ticks {
  var value = 0
}

@MainActor private func mainActorSteps(_ count: Int) async {
  let scheduler = TestScheduler(maxRuns: .max)
  let ticks = Ticks()
  await scheduler.withVirtualTime {
    let ticking = Task { @MainActor in
      for _ in 0..<count {
        try await scheduler.sleep(for: .milliseconds(1))
        ticks.value += 1
      }
    }
    for _ in 0..<count {
      await scheduler.advance(by: .milliseconds(1))
    }
    _ = await ticking.result
  }
  precondition(ticks.value == count, "the main-actor ticker counted \(ticks.value) of \(count)")
}

/// "TestScheduler: async advance from @MainActor, one callback per step": N callbacks scheduled
/// 1 ms apart, then N `await advance(by: .milliseconds(1))` from the main actor, each running one.
func schedulerMainActorCallbackSteps(count: Int) -> Benchmark {
  Benchmark("TestScheduler: async advance steps over callbacks from @MainActor (N = \(count))", operations: count) {
    { blockUntilDone { await mainActorCallbackSteps(count) } }
  }
}

@MainActor private func mainActorCallbackSteps(_ count: Int) async {
  let scheduler = TestScheduler(maxRuns: .max)
  let counter = Counter()
  await scheduler.withVirtualTime {
    for index in 0..<count {
      scheduler.schedule(after: .milliseconds(index + 1)) { counter.increment() }
    }
    for _ in 0..<count {
      await scheduler.advance(by: .milliseconds(1))
    }
  }
  precondition(counter.value == count, "ran \(counter.value) of \(count) callbacks")
}

/// Runs `operation` in a detached task and blocks the (non-actor) benchmark thread until it ends.
func blockUntilDone(_ operation: @escaping @Sendable () async -> Void) {
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    await operation()
    done.signal()
  }
  done.wait()
}
