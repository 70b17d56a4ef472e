import Effects
import EffectsTestSupport
import Models
import Testing

/// The search box, tested as the README tests it: `@Test(.virtualTime)`, a scope per case.
@MainActor struct DebounceTests {
  @Test(.virtualTime, arguments: 0..<caseCount) func searchesOnceTheUserStopsTyping(_ index: Int) async {
    let scheduler = TestScheduler.current
    let clock = Environment.current.continuousClock
    let box = SearchBox { try await clock.sleep(for: $0) }
    box.type("piz")
    await scheduler.advance(by: .milliseconds(100))
    box.type("pizza")
    await scheduler.advance(by: .milliseconds(299))
    #expect(box.searches == [])
    await scheduler.advance(by: .milliseconds(1))
    #expect(box.searches == ["pizza"])
  }
}
