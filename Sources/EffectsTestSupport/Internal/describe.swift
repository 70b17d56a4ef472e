import Effects

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
///
/// A list of more than ``OutputBudget/listEntries`` items shows its first 10 and its last 10, with
/// a line between them that counts the rest (`\n  … 99980 more`) — unless that line would stand
/// for one item: then it shows it. An item longer than ``OutputBudget/entryCharacters`` is cut
/// (see ``clipped(_:)``).
func renderList(_ items: some Sequence<(index: Int, text: String)>) -> String {
  let items = Array(items)
  return listLines(count: items.count) { "\n  [\(items[$0].index)] \(clipped(items[$0].text))" }
}

/// `items` as a list for failure messages, indexed from 0 (see ``renderList(_:)``), each spelled
/// by `text` only when it is shown: a list of 100,000 calls or stubs spells 20 of them.
func renderList<Items: RandomAccessCollection>(_ items: Items, _ text: (Items.Element) -> String) -> String {
  let indices = Array(items.indices)
  return listLines(count: indices.count) { "\n  [\($0)] \(clipped(text(items[indices[$0]])))" }
}

/// `texts` as a list for failure messages, indexed from 0 (see ``renderList(_:)``).
func renderList(_ texts: [String]) -> String {
  renderList(texts) { $0 }
}

/// `values` as a list for failure messages, each shown by ``describe(_:)``.
func describeList(_ values: [Any]) -> String {
  renderList(values, describe)
}

/// The lines of a list of `count` items, the line of each made by `line` from its position only
/// when it is shown (see ``renderList(_:)``).
private func listLines(count: Int, _ line: (Int) -> String) -> String {
  guard count > OutputBudget.listEntries + 1 else { return (0..<count).map(line).joined() }
  let end = OutputBudget.listEntries / 2
  return (0..<end).map(line).joined() + "\n  … \(count - 2 * end) more" + (count - end..<count).map(line).joined()
}

/// `text` as one entry of a failure message: whole up to ``OutputBudget/entryCharacters``
/// characters; a longer one is cut there and says how long it was:
/// `"aaaa…"… (50000002 characters, the first 2000 shown)`.
func clipped(_ text: String) -> String {
  let limit = OutputBudget.entryCharacters
  // Counted in Unicode scalars, as every budget (see `ReportBudget`): one grapheme of a million
  // combining marks is a million.
  guard let (prefix, count) = ReportBudget.prefix(text, scalars: limit) else { return text }
  return "\(prefix)… (\(count) characters, the first \(limit) shown)"
}
