/// The built-in ``Environment/random`` co-effect.
package enum RandomKey: BuiltInKey {
  package static var slot: Int { BuiltInSlot.random.rawValue }
  package static let member = "random"
  package static let liveValue = RandomSource.system
  /// Seeded with 0, fresh for every test environment: every test starts from the same numbers.
  package static var testValue: RandomSource { RandomSource(seed: 0) }
}

extension Environment {
  /// Where random numbers come from: pass it where the standard library takes a generator.
  /// Live: ``RandomSource/system``; in `Environment.test()`, `RandomSource(seed: 0)` of its own.
  ///
  /// ```swift
  /// var random = environment.random
  /// let hand = deck.shuffled(using: &random)
  /// let roll = Int.random(in: 1...6, using: &random)
  /// ```
  ///
  /// Copies of the source share its stream (see ``RandomSource``): the second shuffle goes on where
  /// the first stopped, whichever copy draws it.
  public var random: RandomSource {
    get { self[builtIn: RandomKey.self] }
    set { self[builtIn: RandomKey.self] = newValue }
  }
}
