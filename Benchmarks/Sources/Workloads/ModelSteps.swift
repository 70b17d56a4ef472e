import Effects
import EffectsTestSupport
import Observation

// What a step recorded by a ModelTester costs beside a FeatureTester step: a main-actor task
// ticks N times, 1 ms apart on the scheduler, and the test states each tick. `model-steps`: an
// @Observable model's count, recorded after each job and stated with `assert { $0.count += 1 }`;
// `feature-steps`: the same ticks as actions an effect feeds back, taken with `receive`.

func modelStepWorkloads() -> [Workload] {
  [1_000].flatMap { size -> [Workload] in
    [
      Workload(
        "model-steps",
        size: size,
        side: "effects",
        allocations: .varying,
        body: .async { await modelSteps(size) }
      ),
      Workload(
        "feature-steps",
        size: size,
        side: "effects",
        allocations: .varying,
        body: .async { await featureSteps(size) }
      ),
    ]
  }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor @Observable private final class TickingModel {
  var count = 0

  func start(_ ticks: Int, on scheduler: TestScheduler) -> Task<Void, Never> {
    Task {
      for _ in 0..<ticks {
        try? await scheduler.sleep(for: .milliseconds(1))
        count += 1
      }
    }
  }
}

@MainActor private func modelSteps(_ count: Int) async {
  guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
  let scheduler = TestScheduler(maxRuns: .max)
  await scheduler.withVirtualTime {
    let model = TickingModel()
    let tester = ModelTester(model, scheduler: scheduler)
    let ticking = model.start(count, on: scheduler)
    for _ in 0..<count {
      await tester.advance(by: .milliseconds(1))
      await tester.assert { $0.count += 1 }
    }
    await ticking.value
    await tester.finish()
  }
  precondition(scheduler.elapsed == .milliseconds(count))
}

private enum Tick: Equatable, Sendable {
  case start(Int)
  case tick
}

@MainActor private func featureSteps(_ count: Int) async {
  let scheduler = TestScheduler(maxRuns: .max)
  await scheduler.withVirtualTime {
    let tester = FeatureTester(
      initialState: 0,
      reducer: { (state: Int, action: Tick) -> Outcome<Int, Int> in
        switch action {
        case .start(let ticks): Outcome(value: state, effects: [ticks])
        case .tick: .pure(state + 1)
        }
      },
      scheduler: scheduler
    ) { ticks, send in
      for _ in 0..<ticks {
        try? await scheduler.sleep(for: .milliseconds(1))
        send(.tick)
      }
    }
    await tester.send(.start(count))
    tester.assertEffects([count])
    for _ in 0..<count {
      await tester.advance(by: .milliseconds(1))
      await tester.receive(.tick) { $0 += 1 }
    }
    await tester.finish()
  }
  precondition(scheduler.elapsed == .milliseconds(count))
}
