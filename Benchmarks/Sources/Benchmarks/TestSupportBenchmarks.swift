import Effects
import EffectsTestSupport

private let calls = 1_000_000

/// "`Spy` call recording": ≤ 100 ns per call, for a `Void`-output spy.
func spyCallRecording() -> Benchmark {
  Benchmark("Spy call recording (Void output)", operations: calls, target: 100) {
    let spy = Spy<Int, Void>("logged")
    return {
      for index in 0..<calls { spy.record(index) }
      blackHole(spy)
    }
  }
}

private let effects = 100_000

/// "`Interpreter.perform` of `.setDefault` into `InMemoryDefaults`": ≤ 500 ns per effect.
func interpreterSetDefault() -> Benchmark {
  Benchmark("Interpreter.perform(.setDefault) into InMemoryDefaults", operations: effects, target: 500) {
    var environment = Environment.test()
    environment.defaults = InMemoryDefaults()
    let interpreter = Interpreter.live(environment: environment)
    let batch = (0..<effects).map { Effect.setDefault(.int($0), for: "key\($0 % 100)") }
    return {
      do {
        try interpreter.perform(batch)
      } catch {
        fatalError("\(error)")
      }
    }
  }
}
