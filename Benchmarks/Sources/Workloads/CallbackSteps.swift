import CombineSchedulers
import Dispatch
import Effects
import EffectsTestSupport

// N callbacks scheduled 1 ms apart, then N advances of 1 ms, each running one callback: the cost
// of an advance step when no task needs to settle. The floor is the same steps taken
// synchronously (`advance(by:)` without `await`): issue #16 asks that an awaited step cost at most
// twice that.

func callbackStepWorkloads() -> [Workload] {
  [1_000, 10_000, 100_000].flatMap { size -> [Workload] in
    var workloads = [
      Workload(
        "callback-steps",
        size: size,
        side: "effects",
        allocations: .nearlyExact,
        body: .async { await effectsAwaitedCallbackSteps(size) }
      ),
      Workload("callback-steps", size: size, side: "floor", body: .sync { synchronousCallbackSteps(size) }),
    ]
    // combine-schedulers yields 20 times before each action (`Task.megaYield()`): about 4 ms a
    // step here, so 10,000 would take over a minute per iteration; its size stops at 1,000.
    if size <= 1_000 {
      workloads.append(
        Workload(
          "callback-steps",
          size: size,
          side: "combine-schedulers",
          takesSeconds: true,
          body: .async { await combineSchedulersAwaitedCallbackSteps(size) }
        )
      )
    }
    return workloads
  }
}

@MainActor private func effectsAwaitedCallbackSteps(_ count: Int) async {
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

private func synchronousCallbackSteps(_ count: Int) {
  let scheduler = TestScheduler(maxRuns: .max)
  let counter = Counter()
  for index in 0..<count {
    scheduler.schedule(after: .milliseconds(index + 1)) { counter.increment() }
  }
  for _ in 0..<count {
    scheduler.advanceSynchronously(by: .milliseconds(1))
  }
  precondition(counter.value == count, "ran \(counter.value) of \(count) callbacks")
}

@MainActor private func combineSchedulersAwaitedCallbackSteps(_ count: Int) async {
  let scheduler = DispatchQueue.test
  let counter = Counter()
  for index in 0..<count {
    scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(index + 1))) { counter.increment() }
  }
  for _ in 0..<count {
    await scheduler.advance(by: .milliseconds(1))
  }
  precondition(counter.value == count, "ran \(counter.value) of \(count) callbacks")
}
