/// How a recorder's count and "nothing at all" assertions word a failure — one wording for every
/// recorder: `Spy "fetch" was called 2 times, expected 1 time:`, `CallLog logged 2 calls,
/// expected none:`, `TestObserver<Int, Never> cannot have received -1 values. Pass
/// assertValues(count:) a count of 0 or more.`
struct RecorderWording: Sendable {
  /// The recorder, as the test spells it: `Spy "fetch"`, `CallLog`.
  var subject: String
  /// What it did, after the subject: `was called`, `logged`, `received`, `recorded`.
  var did: String
  /// The same after "cannot have": `been called`, `logged`.
  var haveDone: String
  /// A number of what it records: `2 times`, `2 calls`, `2 values`, `2 effects`.
  var amount: @Sendable (Int) -> String
  /// The assertion that takes a count: `assertCalls(count:)`.
  var countAssertion: String
  /// One recorded item, and the recorder as a common noun, for the list assertion's message:
  /// `("call", "spy")` reads "Spy "fetch" calls differ" and "since the spy was made".
  var noun: (item: String, recorder: String)

  /// The failure of `countAssertion` for `count`, or nil when it passes. `recorded` answers what
  /// was recorded, each item as the message lists it; it is not asked for a negative count.
  func countFailure(_ count: Int, recorded: () -> [String]) -> String? {
    guard count >= 0 else {
      return "\(subject) cannot have \(haveDone) \(amount(count)). Pass \(countAssertion) a count of 0 or more."
    }
    let recorded = recorded()
    guard recorded.count != count else { return nil }
    let list = recorded.isEmpty ? "." : ":" + renderList(recorded)
    return "\(subject) \(did) \(amount(recorded.count)), expected \(amount(count))\(list)"
  }

  /// The failure of the list assertion (`assertCalls(_:)`, `assertEffects(_:)`,
  /// `assertRequests(_:)`, `assertValues(_:)`), or nil when `recorded` is `expected`: the diff,
  /// and — when `expected` is the last part of what was recorded, as in a test asserting one step
  /// at a time without clearing — a sentence saying so, and how to clear. One function for every
  /// recorder, so the same words fail the same way.
  func listFailure<Item: Equatable>(
    expected: [Item],
    recorded: [Item],
    describe: (Item) -> String = { String(describing: $0) }
  ) -> String? {
    guard
      var message = effectsMismatch(
        expected: expected,
        actual: recorded,
        subject: "\(subject) \(noun.item)s differ",
        describe: describe
      )
    else { return nil }
    if !expected.isEmpty, expected.count < recorded.count, recorded.suffix(expected.count).elementsEqual(expected) {
      message += """

        The expected list is the last \(expected.count) of the \(recorded.count) \(noun.item)s recorded: an assertion \
        checks every \(noun.item) since the \(noun.recorder) was made or cleared. Call clear() after an assertion to \
        check one step at a time.
        """
    }
    return message
  }

  /// The failure of an `assertNo…()` assertion, or nil when nothing was recorded.
  func noneFailure(_ recorded: [String]) -> String? {
    guard !recorded.isEmpty else { return nil }
    return "\(subject) \(did) \(amount(recorded.count)), expected none:\(renderList(recorded))"
  }
}

/// `1 call`, `2 calls`: `count` and `noun`, in the plural unless it is 1.
func counted(_ count: Int, _ noun: String) -> String {
  count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
}
