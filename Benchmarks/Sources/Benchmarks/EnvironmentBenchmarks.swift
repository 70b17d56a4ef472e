import Effects
import EffectsTestSupport

private let reads = 1_000_000

/// "`Environment.current` field read": ≤ 25 ns, outside any override (the process root).
func environmentCurrentClock() -> Benchmark {
  Benchmark("Environment.current.clock, outside any override", operations: reads, target: 25) {
    {
      for _ in 0..<reads { blackHole(Environment.current.clock) }
    }
  }
}

/// "`Environment.current` field read": ≤ 25 ns, inside `withEnvironment` (a bound task-local).
func environmentCurrentClockInsideWithEnvironment() -> Benchmark {
  Benchmark("Environment.current.clock, inside withEnvironment", operations: reads, target: 25) {
    let environment = Environment.test()
    return {
      withEnvironment(environment) {
        for _ in 0..<reads { blackHole(Environment.current.clock) }
      }
    }
  }
}
