extension FeatureTester {
  /// How much of what happens a ``FeatureTester`` requires the test to assert.
  ///
  /// ```swift
  /// let tester = FeatureTester(initialState: .initialized, reducer: reducer.reduce, exhaustivity: .off) { … }
  /// await tester.send(.load)            // the effects need not be asserted
  /// await tester.advance(by: .seconds(1))
  /// await tester.receive(.fetched(.blob)) { $0 = .loaded(.blob) }  // skips what arrived before
  /// ```
  public enum Exhaustivity: Hashable, Sendable {
    /// Everything must be asserted: each state change whole, the effects of every step, every
    /// action fed back, and, at ``FeatureTester/finish(fileID:filePath:line:column:)``, no effect still running and no work
    /// pending. The default.
    case on
    /// Only what the test asserts is checked, for integration-style tests: effects and actions
    /// fed back that the test does not assert are accepted silently (`receive` skips to the first
    /// action equal to the one expected), `assert:` closures are applied to the actual state and
    /// must leave it unchanged, and `finish()` cancels the effects still running without a word.
    case off
  }
}
