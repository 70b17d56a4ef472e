/// A value as failure messages show it: strings quoted (so `""` and `" "` are visible), everything
/// else as `String(describing:)`.
func describe(_ value: Any) -> String {
  switch value {
  case let string as String: string.debugDescription
  case let substring as Substring: String(substring).debugDescription
  case let character as Character: String(character).debugDescription
  default: String(describing: value)
  }
}

/// Lines of a list for failure messages, each on its own indented line with its index:
/// `\n  [0] first\n  [1] second`. The one way every message lists things (a difference between two
/// lists is a ``ListDiff``).
func renderList(_ items: some Sequence<(index: Int, text: String)>) -> String {
  items.map { "\n  [\($0.index)] \($0.text)" }.joined()
}

/// `texts` as a list for failure messages, indexed from 0 (see ``renderList(_:)``).
func renderList(_ texts: [String]) -> String {
  renderList(texts.enumerated().map { (index: $0.offset, text: $0.element) })
}

/// `values` as a list for failure messages, each shown by ``describe(_:)``.
func describeList(_ values: [Any]) -> String {
  renderList(values.map(describe))
}
