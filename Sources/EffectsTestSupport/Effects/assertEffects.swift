public import Effects

/// Fails the test unless `outcome` has exactly the `expected` effects, in order.
///
/// The check is exhaustive: a missing, an extra, a reordered or a changed effect each fail, and
/// the message is a diff with one line per effect, reported at the line that called this function.
///
/// ```swift
/// @Test func aWrongPasswordShowsAnAlertAndStoresNothing() {
///   assertEffects(of: login(response: .wrongPassword), [.showAlert("Wrong password")])
/// }
/// ```
///
/// On a mismatch the message reads:
///
/// ```text
/// assertEffects(of:_:) found other effects: got 2, expected 2; first difference at index 1:
///     [0] print("Welcome")
///   ~ [1] setDefault("abc", for: "token")   (expected)
///     [1] setDefault("xyz", for: "token")   (actual)
/// ```
public func assertEffects<Value, E: Equatable>(
  of outcome: Outcome<Value, E>,
  _ expected: [E],
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  guard
    let message = effectsMismatch(
      expected: expected,
      actual: outcome.effects,
      subject: "assertEffects(of:_:) found other effects"
    )
  else { return }
  reportIssue(message, kind: .assertionFailed, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// The failure message for lists that differ (effects, and every recorder's list through
/// ``RecorderWording/listFailure(expected:recorded:describe:)``), or `nil` when they match:
/// `opening`, a colon, and the diff, each entry shown by `describe` (by default its
/// `String(describing:)`).
func effectsMismatch<E: Equatable>(
  expected: [E],
  actual: [E],
  subject opening: String,
  describe: (E) -> String = { String(describing: $0) }
) -> String? {
  guard let diff = ListDiff(expected: expected, actual: actual) else { return nil }
  return "\(opening): \(diff.render(expected: expected, actual: actual, describe: describe))"
}
