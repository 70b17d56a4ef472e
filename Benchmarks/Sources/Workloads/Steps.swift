import CombineSchedulers
import Dispatch
import Effects
import EffectsTestSupport

// N async actions stepped from the main actor: a main-actor task sleeps 1 ms on the scheduler N
// times, counting; the main-actor driver advances 1 ms at a time until the count reaches N. Each
// step is one `await advance(by:)` that resumes the sleeper and returns once it has counted.

func stepWorkloads() -> [Workload] {
  [1_000, 10_000, 100_000].flatMap { size -> [Workload] in
    var workloads = [
      Workload(
        "steps",
        size: size,
        side: "effects",
        allocations: .varying,
        body: .async { await effectsSteps(size) }
      )
    ]
    // combine-schedulers takes about 2 ms a step: 100,000 would take minutes an iteration.
    if size <= 10_000 {
      workloads.append(
        Workload(
          "steps",
          size: size,
          side: "combine-schedulers",
          takesSeconds: size >= 10_000,
          body: .async { await combineSchedulersSteps(size) }
        )
      )
    }
    return workloads
  }
}

@MainActor private final class Ticks {
  var value = 0
}

@MainActor private func effectsSteps(_ count: Int) async {
  let scheduler = TestScheduler(maxRuns: .max)
  let ticks = Ticks()
  var steps = 0
  await scheduler.withVirtualTime {
    let ticking = Task { @MainActor in
      for _ in 0..<count {
        try await scheduler.sleep(for: .milliseconds(1))
        ticks.value += 1
      }
    }
    while ticks.value < count {
      await scheduler.advance(by: .milliseconds(1))
      steps += 1
    }
    _ = await ticking.result
  }
  // Virtual time is exact: one advance per action.
  precondition(steps == count, "took \(steps) advances for \(count) actions")
}

/// The closest equivalent in combine-schedulers: its `TestScheduler`'s main-actor
/// `advance(by:)`, which yields (`Task.megaYield()`) before running each action, and its
/// `sleep(for:)`. Not exact: when the sleeper has not slept again before the next advance, that
/// advance finds nothing due and the loop advances once more; the cost is still reported per action.
@MainActor private func combineSchedulersSteps(_ count: Int) async {
  let scheduler = DispatchQueue.test
  let ticks = Ticks()
  let ticking = Task { @MainActor in
    for _ in 0..<count {
      try await scheduler.sleep(for: .milliseconds(1))
      ticks.value += 1
    }
  }
  while ticks.value < count {
    await scheduler.advance(by: .milliseconds(1))
  }
  _ = await ticking.result
}
