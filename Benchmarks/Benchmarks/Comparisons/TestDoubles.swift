import Benchmark
import Effects
import EffectsTestSupport

// This library's own test doubles, which have no peer here: a spy recording a call, and the live
// interpreter performing an effect into an in-memory environment.

func testDoubleBenchmarks() {
  let calls = 1_000_000
  Benchmark("spy-record.\(label(calls)).effects") { benchmark in
    let spy = Spy<Int, Void>("logged")
    benchmark.startMeasurement()
    for index in 0..<calls { spy.record(index) }
    benchmark.stopMeasurement()
    precondition(spy.callCount == calls)
  }

  let effects = 100_000
  let batch = (0..<effects).map { Effect.setDefault(.int($0), for: "key\($0 % 100)") }
  Benchmark("interpret.\(label(effects)).effects") { benchmark in
    var environment = Environment.test()
    environment.defaults = InMemoryDefaults()
    let interpreter = Interpreter.live(environment: environment)
    benchmark.startMeasurement()
    do {
      try interpreter.perform(batch)
    } catch {
      fatalError("\(error)")
    }
  }
}
