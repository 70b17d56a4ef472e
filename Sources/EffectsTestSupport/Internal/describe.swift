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
  let line = { (item: (index: Int, text: String)) in "\n  [\(item.index)] \(clipped(item.text))" }
  guard items.count > OutputBudget.listEntries + 1 else { return items.map(line).joined() }
  let end = OutputBudget.listEntries / 2
  return items.prefix(end).map(line).joined() + "\n  … \(items.count - 2 * end) more"
    + items.suffix(end).map(line).joined()
}

/// `texts` as a list for failure messages, indexed from 0 (see ``renderList(_:)``).
func renderList(_ texts: [String]) -> String {
  renderList(texts.enumerated().map { (index: $0.offset, text: $0.element) })
}

/// `values` as a list for failure messages, each shown by ``describe(_:)``.
func describeList(_ values: [Any]) -> String {
  renderList(values.map(describe))
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
