import Clocks
import Models
import Testing

/// The search box, tested with swift-clocks' `TestClock`, cases in parallel.
@MainActor struct DebounceTests {
  @Test(arguments: 0..<caseCount) func searchesOnceTheUserStopsTyping(_ index: Int) async {
    let clock = TestClock()
    let box = SearchBox { try await clock.sleep(for: $0) }
    box.type("piz")
    await clock.advance(by: .milliseconds(100))
    box.type("pizza")
    await clock.advance(by: .milliseconds(299))
    #expect(box.searches == [])
    await clock.advance(by: .milliseconds(1))
    #expect(box.searches == ["pizza"])
  }
}
