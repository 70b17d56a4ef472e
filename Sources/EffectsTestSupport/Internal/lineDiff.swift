/// The lines of `actual` and `expected` that differ, for a failure message: each line that is
/// only in the actual text marked `+`, each only in the expected text marked `-` (actual first,
/// as messages say what happened before what was expected), and `context` unchanged lines around
/// them; longer runs of unchanged lines are cut to `…`. Lines are matched by ``ListDiff``, so a
/// property added or removed shows as one line.
///
/// ```text
///     .loaded(
///       User(
///   +     name: "Blob II"
///   -     name: "Blob"
///         location: "Chicago"
///       )
///     …
/// ```
///
/// Nil when the two texts have the same lines.
func lineDiff(actual: [String], expected: [String], context: Int = 2) -> String? {
  guard let diff = ListDiff(expected: expected, actual: actual) else { return nil }
  var rows: [(text: String, changed: Bool)] = []
  var pendingExpected: [String] = []
  func flushExpected() {
    rows += pendingExpected.map { ("  - \($0)", true) }
    pendingExpected = []
  }
  for line in diff.lines {
    switch line {
    case .same(_, let actualIndex):
      flushExpected()
      rows.append(("    \(actual[actualIndex])", false))
    case .changed(let expectedIndex, let actualIndex):
      // A run of changes reads as all its actual lines, then all its expected lines.
      rows.append(("  + \(actual[actualIndex])", true))
      pendingExpected.append(expected[expectedIndex])
    case .missing(let expectedIndex):
      pendingExpected.append(expected[expectedIndex])
    case .unexpected(let actualIndex):
      rows.append(("  + \(actual[actualIndex])", true))
    }
  }
  flushExpected()
  let changed = rows.indices.filter { rows[$0].changed }
  var shown = [Bool](repeating: false, count: rows.count)
  for index in changed {
    for near in max(0, index - context)...min(rows.count - 1, index + context) { shown[near] = true }
  }
  // A single hidden line is shown: `…` would take its place and say less.
  for index in rows.indices where !shown[index] {
    let before = index == 0 || shown[index - 1]
    let after = index == rows.count - 1 || shown[index + 1]
    if before && after { shown[index] = true }
  }
  var output: [String] = []
  var cut = false
  for (index, row) in rows.enumerated() {
    if shown[index] {
      output.append(row.text)
      cut = false
    } else if !cut {
      output.append("    …")
      cut = true
    }
  }
  return output.joined(separator: "\n")
}
