import Effects
import Testing

struct OutcomeTests {
  @Test func aPureOutcomeHasNoEffects() {
    let outcome = Outcome<Int, Effect>.pure(7)
    #expect(outcome.value == 7)
    #expect(outcome.effects.isEmpty)
  }

  @Test func mapTransformsTheValueAndKeepsTheEffects() {
    let outcome = Outcome(value: 3, effects: [Effect.print("three")]).map { "\($0 * 2)" }
    #expect(outcome == Outcome(value: "6", effects: [.print("three")]))
  }

  @Test func flatMapPutsTheNextEffectsAfterTheFirst() {
    let outcome = Outcome(value: 3, effects: [Effect.print("a"), .print("b")])
      .flatMap { value in Outcome(value: value + 1, effects: [.print("c"), .removeDefault(for: "\(value)")]) }
    #expect(outcome.value == 4)
    #expect(outcome.effects == [.print("a"), .print("b"), .print("c"), .removeDefault(for: "3")])
  }

  @Test func outcomesCompareAndHashByValueAndEffects() {
    let one = Outcome(value: 1, effects: [Effect.print("x")])
    #expect(one == Outcome(value: 1, effects: [.print("x")]))
    #expect(one != Outcome(value: 2, effects: [.print("x")]))
    #expect(one != Outcome(value: 1, effects: [.print("y")]))
    #expect(one != Outcome(value: 1, effects: [.print("x"), .print("x")]))
    #expect(Set([one, Outcome(value: 1, effects: [.print("x")])]).count == 1)
  }

  @Test func anOutcomeCrossesIntoATask() async {
    let outcome = Outcome(value: 1, effects: [Effect.print("x")])
    let copy = await Task { outcome }.value
    #expect(copy == outcome)
  }

  @Test func mapAndFlatMapRethrow() {
    struct Failure: Error {}
    let outcome = Outcome(value: 1, effects: [Effect.print("x")])
    #expect(throws: Failure.self) { try outcome.map { _ -> Int in throw Failure() } }
    #expect(throws: Failure.self) { try outcome.flatMap { _ -> Outcome<Int, Effect> in throw Failure() } }
  }
}
