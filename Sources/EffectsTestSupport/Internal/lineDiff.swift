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
/// At most ``OutputBudget/changedLines`` changed lines are shown, each cut to
/// ``OutputBudget/entryCharacters``; a last line counts the rest (`    … and 12 more changed
/// lines`), or says where the comparison stopped (see ``ListDiff/isComplete``).
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
  let shownChanges = changed.prefix(OutputBudget.changedLines)
  let isCut = shownChanges.count < changed.count || !diff.isComplete
  // A cut diff ends with the context of its last change shown, up to the first change not shown.
  let next = changed.count > shownChanges.count ? changed[shownChanges.count] : rows.count
  let end = isCut ? min(next, (shownChanges.last ?? 0) + context + 1) : rows.count
  let shown = shownIndices(around: shownChanges, in: end, context: context)
  var output: [String] = []
  var cut = false
  for (index, row) in rows.prefix(end).enumerated() {
    if shown[index] {
      output.append(clipped(row.text))
      cut = false
    } else if !cut {
      output.append("    …")
      cut = true
    }
  }
  if !diff.isComplete {
    output.append(
      "    … and more changed lines: past \(OutputBudget.edits) insertions and removals, the rest is not compared"
    )
  } else if shownChanges.count < changed.count {
    output.append("    … and \(counted(changed.count - shownChanges.count, "more changed line"))")
  }
  return output.joined(separator: "\n")
}
