import Clocks
import ConcurrencyExtras
import Models
import Testing

/// The search box, tested with `TestClock` inside `withMainSerialExecutor`: cases one at a time
/// (`.serialized`), as it requires.
@Suite(.serialized) @MainActor struct DebounceTests {
  @Test(arguments: 0..<caseCount) func searchesOnceTheUserStopsTyping(_ index: Int) async {
    await withMainSerialExecutor {
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
}
