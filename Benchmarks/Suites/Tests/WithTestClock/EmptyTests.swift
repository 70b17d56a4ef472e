import Models
import Testing

/// A test with nothing in it: the framework's own cost of a case.
@MainActor struct EmptyTests {
  @Test(arguments: 0..<caseCount) func doesNothing(_ index: Int) async {}
}
