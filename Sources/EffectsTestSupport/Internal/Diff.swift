/// A line-by-line difference between an expected and an actual list, for failure messages.
///
/// Entries are matched by a longest common subsequence, so an insertion or a removal shows as one
/// line, not as every line after it changing. Between two matches, an expected entry and an
/// actual entry at the same step are paired as *changed*; the rest are *missing* (expected, not
/// there) or *unexpected* (there, not expected).
///
/// ```text
/// got 3, expected 3; first difference at index 1:
///     [0] print("a")
///   ~ [1] track(event: "visited")   (expected)
///     [1] track(event: "ordered")   (actual)
///   - [2] print("b")   (missing)
///   + [2] print("c")   (unexpected)
/// ```
///
/// The cost is linear in the length of the lists for a few differences: the common start is
/// skipped, and the rest is compared by Myers' algorithm (*An O(ND) difference algorithm and its
/// variations*, 1986), in time proportional to the length of the lists times the number of
/// insertions and removals, looking for at most ``OutputBudget/edits`` of them. Where several
/// alignments are as short, the one chosen is the one a full table of common subsequences chose
/// before (a test checks that they agree): walking from the start, equal entries match, else an
/// actual entry is unexpected whenever that keeps the alignment shortest, else an expected entry
/// is missing. Past the budget, ``lines`` align only the start of the lists, and ``isComplete`` is
/// false.
package struct ListDiff {
  package enum Line: Equatable {
    case same(expectedIndex: Int, actualIndex: Int)
    case changed(expectedIndex: Int, actualIndex: Int)
    case missing(expectedIndex: Int)
    case unexpected(actualIndex: Int)

    var isSame: Bool {
      if case .same = self { return true }
      return false
    }
  }

  /// The entries of both lists, aligned; only the start of each when ``isComplete`` is false.
  package let lines: [Line]
  package let expectedCount: Int
  package let actualCount: Int
  /// The index of the first entry that differs. Before it the two lists agree, so it is the same
  /// position in both.
  package let firstDifference: Int
  /// Whether ``lines`` align the whole of both lists; false when they differ by more than
  /// ``OutputBudget/edits`` insertions and removals after their common start, where ``lines``
  /// stop after that many.
  package let isComplete: Bool

  /// Compares two lists; `nil` when they are equal.
  package init?<T: Equatable>(expected: [T], actual: [T]) {
    guard expected != actual else { return nil }
    self.init(expected: expected, actual: actual, budget: OutputBudget.edits)
  }

  /// Compares two lists that differ, looking for at most `budget` insertions and removals.
  init<T: Equatable>(expected: [T], actual: [T], budget: Int) {
    expectedCount = expected.count
    actualCount = actual.count
    var start = 0
    while start < expected.count, start < actual.count, expected[start] == actual[start] { start += 1 }
    firstDifference = start
    var lines = LineBuilder()
    for index in 0..<start { lines.same(index, index) }
    isComplete = Alignment(expected: expected[start...], actual: actual[start...]).align(into: &lines, budget: budget)
    self.lines = lines.finish()
  }

  /// The diff as text, each entry rendered by `describe`: the counts, what happened before what
  /// was expected, then a line per entry. A diff of at most ``OutputBudget/wholeDiff`` entries
  /// and ``OutputBudget/differences`` differences shows every entry; a longer one shows its first
  /// ``OutputBudget/differences`` differences with ``OutputBudget/context`` equal entries around
  /// each, and a line for each run of entries it leaves out. An entry longer than
  /// ``OutputBudget/entryCharacters`` is cut.
  package func render<T>(expected: [T], actual: [T], describe: (T) -> String) -> String {
    var output = "got \(actualCount), expected \(expectedCount); first difference at index \(firstDifference):"
    func append(_ line: Line) {
      switch line {
      case .same(_, let actualIndex):
        output += "\n    [\(actualIndex)] \(clipped(describe(actual[actualIndex])))"
      case .changed(let expectedIndex, let actualIndex):
        output += "\n  ~ [\(expectedIndex)] \(clipped(describe(expected[expectedIndex])))   (expected)"
        output += "\n    [\(actualIndex)] \(clipped(describe(actual[actualIndex])))   (actual)"
      case .missing(let expectedIndex):
        output += "\n  - [\(expectedIndex)] \(clipped(describe(expected[expectedIndex])))   (missing)"
      case .unexpected(let actualIndex):
        output += "\n  + [\(actualIndex)] \(clipped(describe(actual[actualIndex])))   (unexpected)"
      }
    }
    let differences = lines.indices.filter { !lines[$0].isSame }
    if isComplete, lines.count <= OutputBudget.wholeDiff, differences.count <= OutputBudget.differences {
      for line in lines { append(line) }
      return output
    }
    let shownDifferences = differences.prefix(OutputBudget.differences)
    // The last shown difference's context stops at the first difference not shown.
    let next = differences.count > shownDifferences.count ? differences[shownDifferences.count] : lines.count
    var end = min(next, shownDifferences.last.map { $0 + OutputBudget.context + 1 } ?? 0)
    // A single equal entry left at the end is shown: `…` would take its place and say less.
    if isComplete, differences.count == shownDifferences.count, lines.count - end == 1 { end = lines.count }
    let shown = shownIndices(around: shownDifferences, in: end, context: OutputBudget.context)
    var hidden = 0
    for index in 0..<end {
      if shown[index] {
        if hidden > 0 { output += "\n    … \(hidden) equal entries" }
        hidden = 0
        append(lines[index])
      } else {
        hidden += 1
      }
    }
    if hidden > 0 { output += "\n    … \(hidden) equal entries" }
    if !isComplete {
      output +=
        "\n  … and more differences: past \(OutputBudget.edits) insertions and removals, the rest is not compared"
    } else if differences.count > shownDifferences.count {
      output += "\n  … and \(counted(differences.count - shownDifferences.count, "more difference"))"
    } else if end < lines.count {
      output += "\n    … \(lines.count - end) equal entries"
    }
    return output
  }
}

/// Which of the first `count` lines a cut diff shows: those within `context` lines of a shown
/// change, and any single line between two shown ones (`…` would take its place and say less).
func shownIndices(around changes: some Collection<Int>, in count: Int, context: Int) -> [Bool] {
  var shown = [Bool](repeating: false, count: count)
  for index in changes {
    for near in max(0, index - context)...min(count - 1, index + context) { shown[near] = true }
  }
  for index in shown.indices where !shown[index] {
    let before = index == 0 || shown[index - 1]
    let after = index == count - 1 || shown[index + 1]
    if before && after { shown[index] = true }
  }
  return shown
}

/// Builds the lines of a diff from single steps: between two matches, the expected entries left
/// out and the actual entries let in are paired, in order, as changed.
private struct LineBuilder {
  private var lines: [ListDiff.Line] = []
  private var missing: [Int] = []
  private var unexpected: [Int] = []

  mutating func same(_ expectedIndex: Int, _ actualIndex: Int) {
    flush()
    lines.append(.same(expectedIndex: expectedIndex, actualIndex: actualIndex))
  }

  mutating func missing(_ expectedIndex: Int) {
    missing.append(expectedIndex)
  }

  mutating func unexpected(_ actualIndex: Int) {
    unexpected.append(actualIndex)
  }

  mutating func finish() -> [ListDiff.Line] {
    flush()
    return lines
  }

  private mutating func flush() {
    let paired = min(missing.count, unexpected.count)
    for k in 0..<paired { lines.append(.changed(expectedIndex: missing[k], actualIndex: unexpected[k])) }
    for index in missing.dropFirst(paired) { lines.append(.missing(expectedIndex: index)) }
    for index in unexpected.dropFirst(paired) { lines.append(.unexpected(actualIndex: index)) }
    missing.removeAll()
    unexpected.removeAll()
  }
}

/// The alignment of two lists that differ at their first entries (or of which one is empty), by
/// Myers' algorithm.
///
/// A point `(x, y)` stands for `expected[x...]` and `actual[y...]` still to align; a step moves
/// right along a match (`x + 1, y + 1`), or takes one edit: an expected entry missing (`x + 1`) or
/// an actual entry unexpected (`y + 1`). Points with the same `k = x - y` form a diagonal. A
/// *frontier* row `e` holds, for each diagonal `k` an `e`-edit path can reach, the furthest `x` it
/// reaches there (Myers' lemma: going as far as possible along matches is never worse).
private struct Alignment<T: Equatable> {
  let expected: ArraySlice<T>
  let actual: ArraySlice<T>

  /// Appends the lines of the alignment to `lines`, and answers whether it is whole: false when
  /// it takes more than `budget` edits, and `lines` stop after that many.
  func align(into lines: inout LineBuilder, budget: Int) -> Bool {
    let n = expected.count
    let m = actual.count
    let e0 = expected.startIndex
    let a0 = actual.startIndex
    guard n > 0, m > 0 else {
      for index in expected.indices { lines.missing(index) }
      for index in actual.indices { lines.unexpected(index) }
      return true
    }
    // Searching from the end answers, for any point, how many edits remain from it: the walk from
    // the start then takes each step that keeps to the fewest edits, preferring a match, then an
    // unexpected entry. The common end of the lists is that search's first run of matches.
    let fromEnd = Self.frontiers(n: n, m: m, budget: budget) { expected[e0 + n - 1 - $0] == actual[a0 + m - 1 - $1] }
    guard fromEnd.complete else {
      alignStart(into: &lines, budget: budget)
      return false
    }
    // Whether `(x, y)` is within `edits` edits of the end.
    func reachesEnd(_ x: Int, _ y: Int, within edits: Int) -> Bool {
      let k = (n - x) - (m - y)
      guard edits >= 0, abs(k) <= edits, (k + edits) % 2 == 0 else { return false }
      return fromEnd.rows[edits][(k + edits) / 2] >= n - x
    }
    var remaining = fromEnd.rows.count - 1
    var x = 0
    var y = 0
    while x < n || y < m {
      if x < n, y < m, expected[e0 + x] == actual[a0 + y] {
        lines.same(e0 + x, a0 + y)
        x += 1
        y += 1
      } else if y < m, x == n || reachesEnd(x, y + 1, within: remaining - 1) {
        lines.unexpected(a0 + y)
        y += 1
        remaining -= 1
      } else {
        lines.missing(e0 + x)
        x += 1
        remaining -= 1
      }
    }
    return true
  }

  /// Appends the lines of a shortest alignment of the start of the lists that takes `budget`
  /// edits, as far into the lists as such an alignment goes.
  private func alignStart(into lines: inout LineBuilder, budget: Int) {
    let n = expected.count
    let m = actual.count
    let e0 = expected.startIndex
    let a0 = actual.startIndex
    let rows = Self.frontiers(n: n, m: m, budget: budget) { expected[e0 + $0] == actual[a0 + $1] }.rows
    // From the end of the path that goes furthest in the last row (x + y on the diagonal of
    // `index` is 2 x - (2 index - budget): the largest x - index) and, of those, the nearest to the
    // diagonal of the end (n - m) — lists that differ everywhere then read as changed entries, not
    // as all of one list, then all of the other — back, row by row, to the start.
    guard let last = rows.last else { return }
    func rank(_ index: Int) -> (Int, Int) { (last[index] - index, -abs(2 * index - budget - (n - m))) }
    guard let furthest = last.indices.filter({ last[$0] >= 0 }).max(by: { rank($0) < rank($1) }) else { return }
    var steps: [Step] = []
    var index = furthest
    for e in stride(from: budget, through: 0, by: -1) {
      let k = 2 * index - e
      let entry = e == 0 ? nil : Self.entry(to: index, of: rows[e - 1], n: n, m: m, e: e)
      for x in stride(from: rows[e][index] - 1, through: entry?.x ?? 0, by: -1) { steps.append(.same(x, x - k)) }
      guard let entry else { break }
      steps.append(entry.step)
      // An unexpected entry came from the diagonal above, which has the same index a row up.
      if case .missing = entry.step { index -= 1 }
    }
    for step in steps.reversed() {
      switch step {
      case .same(let x, let y): lines.same(e0 + x, a0 + y)
      case .missing(let x): lines.missing(e0 + x)
      case .unexpected(let y): lines.unexpected(a0 + y)
      }
    }
  }

  private enum Step {
    case same(Int, Int)
    case missing(Int)
    case unexpected(Int)
  }

  /// The frontier rows of a search of an `n` by `m` grid where `same(x, y)` says whether a match
  /// moves right from `(x, y)`, row by row until a path reaches `(n, m)` or `budget` edits have
  /// been taken. Row `e` has `e + 1` entries, for the diagonals `-e, -e + 2, …, e`; `-1` where no
  /// `e`-edit path reaches that diagonal.
  private static func frontiers(
    n: Int,
    m: Int,
    budget: Int,
    same: (Int, Int) -> Bool
  ) -> (rows: [[Int]], complete: Bool) {
    var rows: [[Int]] = []
    for e in 0...budget {
      var row = [Int](repeating: -1, count: e + 1)
      for index in 0...e {
        let k = 2 * index - e
        var x: Int
        if e == 0 {
          x = 0
        } else {
          guard let entry = entry(to: index, of: rows[e - 1], n: n, m: m, e: e) else { continue }
          x = entry.x
        }
        var y = x - k
        while x < n, y < m, same(x, y) {
          x += 1
          y += 1
        }
        row[index] = x
        if x == n, y == m {
          rows.append(row)
          return (rows, true)
        }
      }
      rows.append(row)
    }
    return (rows, false)
  }

  /// Where the furthest `e`-edit path onto the diagonal of `index` in row `e` enters it, from row
  /// `e - 1` (`previous`), and the edit it takes there; nil when no such path stays in the grid.
  private static func entry(to index: Int, of previous: [Int], n: Int, m: Int, e: Int) -> (x: Int, step: Step)? {
    let k = 2 * index - e
    // From the diagonal above (k + 1), an unexpected entry: x stays. From the one below (k - 1),
    // a missing entry: x + 1.
    let fromAbove = index < e ? previous[index] : -1
    let fromBelow = index > 0 ? previous[index - 1] : -1
    var best: (x: Int, step: Step)?
    if fromAbove >= 0, fromAbove - k <= m { best = (fromAbove, .unexpected(fromAbove - k - 1)) }
    if fromBelow >= 0, fromBelow + 1 <= n, fromBelow + 1 > best?.x ?? -1 { best = (fromBelow + 1, .missing(fromBelow)) }
    return best
  }
}
