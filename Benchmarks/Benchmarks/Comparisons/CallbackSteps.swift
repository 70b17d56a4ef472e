import Benchmark
import CombineSchedulers
import Dispatch
import Effects
import EffectsTestSupport

// N callbacks scheduled 1 ms apart, then N advances of 1 ms, each running one callback: the cost
// of an advance step when no task needs to settle. The floor is the same steps taken
// synchronously (`advance(by:)` without `await`): issue #16 asks that an awaited step cost at most
// twice that.

func callbackStepBenchmarks() {
  let settings = RunSettings.current
  for size in [1_000, 10_000] {
    Benchmark(
      "callback-steps.\(label(size)).effects",
      configuration: settings.configuration(thresholds: RunSettings.concurrentThresholds)
    ) { _ in
      await effectsAwaitedCallbackSteps(size)
    }
    Benchmark("callback-steps.\(label(size)).floor") { _ in
      let scheduler = TestScheduler(maxRuns: .max)
      let counter = Counter()
      for index in 0..<size {
        scheduler.schedule(after: .milliseconds(index + 1)) { counter.increment() }
      }
      for _ in 0..<size {
        scheduler.advance(by: .milliseconds(1))
      }
      precondition(counter.value == size, "ran \(counter.value) of \(size) callbacks")
    }
    // combine-schedulers yields 20 times before each action (`Task.megaYield()`): about 4 ms a
    // step here, so 10,000 would take over a minute per iteration; its size stops at 1,000.
    if size <= 1_000 {
      Benchmark("callback-steps.\(label(size)).combine-schedulers", configuration: settings.slowPeer()) { _ in
        await combineSchedulersAwaitedCallbackSteps(size)
      }
    }
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
