import Effects
import EffectsTestSupport

// This library's own test doubles, which have no peer here: a spy recording a call, and the live
// interpreter performing an effect into an in-memory environment.

func testDoubleWorkloads() -> [Workload] {
  let calls = 1_000_000
  let effects = 100_000
  let batch = (0..<effects).map { Effect.setDefault(.int($0), for: "key\($0 % 100)") }
  return [
    Workload("spy-record", size: calls, side: "effects", body: .sync { spyRecords(calls) }),
    Workload("interpret", size: effects, side: "effects", body: .sync { interpret(batch) }),
  ]
}

private func spyRecords(_ calls: Int) {
  let spy = Spy<Int, Void>("logged")
  for index in 0..<calls { spy.record(index) }
  precondition(spy.calls.count == calls)
}

private func interpret(_ batch: [Effect]) {
  var environment = Environment.test()
  environment.defaults = InMemoryDefaults()
  do {
    try Interpreter.live(environment: environment).perform(batch)
  } catch {
    fatalError("\(error)")
  }
}
