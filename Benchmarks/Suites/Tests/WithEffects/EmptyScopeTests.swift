import EffectsTestSupport
import Models
import Testing

/// A scope with nothing in it: the fixed cost every case of this library pays.
@MainActor struct EmptyScopeTests {
  @Test(.virtualTime, arguments: 0..<caseCount) func opensAndEnds(_ index: Int) async {}
}
