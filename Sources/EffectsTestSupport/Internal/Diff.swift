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
package struct ListDiff {
  package enum Line: Equatable {
    case same(expectedIndex: Int, actualIndex: Int)
    case changed(expectedIndex: Int, actualIndex: Int)
    case missing(expectedIndex: Int)
    case unexpected(actualIndex: Int)
  }

  package let lines: [Line]
  package let expectedCount: Int
  package let actualCount: Int

  /// Compares two lists; `nil` when they are equal.
  package init?<T: Equatable>(expected: [T], actual: [T]) {
    guard expected != actual else { return nil }
    expectedCount = expected.count
    actualCount = actual.count
    lines = Self.align(expected, actual)
  }

  /// The index of the first entry that differs. Before it the two lists agree, so it is the same
  /// position in both.
  package var firstDifference: Int {
    for line in lines {
      switch line {
      case .same: continue
      case .changed(let index, _), .missing(let index), .unexpected(let index): return index
      }
    }
    return min(expectedCount, actualCount)
  }

  /// The diff as text, each entry rendered by `describe`: the counts, what happened before what
  /// was expected, then a line per entry.
  package func render<T>(expected: [T], actual: [T], describe: (T) -> String) -> String {
    var output = "got \(actualCount), expected \(expectedCount); first difference at index \(firstDifference):"
    for line in lines {
      switch line {
      case .same(_, let actualIndex):
        output += "\n    [\(actualIndex)] \(describe(actual[actualIndex]))"
      case .changed(let expectedIndex, let actualIndex):
        output += "\n  ~ [\(expectedIndex)] \(describe(expected[expectedIndex]))   (expected)"
        output += "\n    [\(actualIndex)] \(describe(actual[actualIndex]))   (actual)"
      case .missing(let expectedIndex):
        output += "\n  - [\(expectedIndex)] \(describe(expected[expectedIndex]))   (missing)"
      case .unexpected(let actualIndex):
        output += "\n  + [\(actualIndex)] \(describe(actual[actualIndex]))   (unexpected)"
      }
    }
    return output
  }

  private static func align<T: Equatable>(_ expected: [T], _ actual: [T]) -> [Line] {
    let n = expected.count
    let m = actual.count
    // suffix[i][j]: length of the longest common subsequence of expected[i...] and actual[j...].
    var suffix = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        suffix[i][j] =
          expected[i] == actual[j] ? suffix[i + 1][j + 1] + 1 : max(suffix[i + 1][j], suffix[i][j + 1])
      }
    }
    var lines: [Line] = []
    var missing: [Int] = []
    var unexpected: [Int] = []
    func flush() {
      let paired = min(missing.count, unexpected.count)
      for k in 0..<paired { lines.append(.changed(expectedIndex: missing[k], actualIndex: unexpected[k])) }
      for index in missing.dropFirst(paired) { lines.append(.missing(expectedIndex: index)) }
      for index in unexpected.dropFirst(paired) { lines.append(.unexpected(actualIndex: index)) }
      missing.removeAll()
      unexpected.removeAll()
    }
    var i = 0
    var j = 0
    while i < n || j < m {
      if i < n, j < m, expected[i] == actual[j] {
        flush()
        lines.append(.same(expectedIndex: i, actualIndex: j))
        i += 1
        j += 1
      } else if j < m, i == n || suffix[i][j + 1] >= suffix[i + 1][j] {
        unexpected.append(j)
        j += 1
      } else {
        missing.append(i)
        i += 1
      }
    }
    flush()
    return lines
  }
}
