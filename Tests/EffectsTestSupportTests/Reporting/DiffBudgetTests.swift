import Effects
import EffectsTestHelpers
@testable import EffectsTestSupport
import Foundation
import Testing

/// Failure messages have a budget (`OutputBudget`): a diff shows its first 20 differences, a list
/// its first and last 10 entries, a body its first KiB — each cut saying what it left out — and the
/// list diff costs time and memory in proportion to the lists for a few differences.
@Suite struct DiffBudgetTests {
  private static let file = "EffectsTestSupportTests/DiffBudgetTests.swift"

  // MARK: The alignment

  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func aDiffAlignsListsExactlyAsAFullTableOfCommonSubsequencesDid(seed: UInt64) {
    var random = RandomSource(seed: seed)
    for _ in 0..<2_000 {
      let expected = (0..<Int.random(in: 0...14, using: &random)).map { _ in Int.random(in: 0..<3, using: &random) }
      let actual = (0..<Int.random(in: 0...14, using: &random)).map { _ in Int.random(in: 0..<3, using: &random) }
      guard let diff = ListDiff(expected: expected, actual: actual) else {
        #expect(expected == actual)
        continue
      }
      #expect(diff.isComplete)
      #expect(diff.lines == fullTableLines(expected, actual), "expected \(expected), actual \(actual)")
    }
  }

  @Test func aDiffOfListsWithLongRunsAlignsExactlyAsAFullTableDid() {
    var random = RandomSource(seed: 7)
    for _ in 0..<200 {
      let expected = (0..<120).map { _ in Int.random(in: 0..<10, using: &random) == 0 ? 1 : 0 }
      var actual = expected
      for _ in 0..<Int.random(in: 1...6, using: &random) {
        let index = Int.random(in: 0...actual.count, using: &random)
        if Bool.random(using: &random), index < actual.count {
          actual.remove(at: index)
        } else {
          actual.insert(Int.random(in: 0..<3, using: &random), at: index)
        }
      }
      guard let diff = ListDiff(expected: expected, actual: actual) else { continue }
      #expect(diff.lines == fullTableLines(expected, actual), "expected \(expected), actual \(actual)")
    }
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func pastItsBudgetADiffAlignsTheStartOfTheListsInExactlyThatManyEdits(seed: UInt64) {
    var random = RandomSource(seed: seed)
    let budget = 6
    for _ in 0..<1_000 {
      let expected = (0..<Int.random(in: 0...20, using: &random)).map { _ in Int.random(in: 0..<4, using: &random) }
      let actual = (0..<Int.random(in: 0...20, using: &random)).map { _ in Int.random(in: 0..<4, using: &random) }
      guard expected != actual else { continue }
      let diff = ListDiff(expected: expected, actual: actual, budget: budget)
      let context = "expected \(expected), actual \(actual)"
      // Every entry in order, each once; matched entries equal.
      var nextExpected = 0
      var nextActual = 0
      var edits = 0
      for line in diff.lines {
        switch line {
        case .same(let e, let a):
          #expect(e == nextExpected && a == nextActual && expected[e] == actual[a], "\(context)")
          nextExpected += 1
          nextActual += 1
        case .changed(let e, let a):
          #expect(e >= nextExpected && a >= nextActual, "\(context)")
          nextExpected = e + 1
          nextActual = a + 1
          edits += 2
        case .missing(let e):
          #expect(e >= nextExpected, "\(context)")
          nextExpected = e + 1
          edits += 1
        case .unexpected(let a):
          #expect(a >= nextActual, "\(context)")
          nextActual = a + 1
          edits += 1
        }
      }
      let shortest = expected.count + actual.count - 2 * commonLength(expected, actual)
      // Past their common start, a list that has ended leaves the other's entries all missing or all
      // unexpected: that diff needs no search, and is whole whatever its length.
      let start = zip(expected, actual).prefix { $0 == $1 }.count
      if shortest <= budget || start == expected.count || start == actual.count {
        #expect(diff.isComplete, "\(context)")
        #expect(diff.lines == fullTableLines(expected, actual), "\(context)")
      } else {
        #expect(!diff.isComplete, "\(context)")
        #expect(edits == budget, "\(context)")
      }
    }
  }

  // MARK: What a message shows

  @Test func aLongDiffShowsItsFirstTwentyDifferencesAndCountsTheRest() {
    let spy = Spy<Int, Void>("counter.next")
    for value in 0..<130 { spy.record(value) }
    let line = #line + 1
    let issues = withCapturedIssues { spy.assertCalls(Array(0..<100)) }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          Spy "counter.next" calls differ: got 130, expected 100; first difference at index 100:
              … 98 equal entries
              [98] 98
              [99] 99
            + [100] 100   (unexpected)
            + [101] 101   (unexpected)
            + [102] 102   (unexpected)
            + [103] 103   (unexpected)
            + [104] 104   (unexpected)
            + [105] 105   (unexpected)
            + [106] 106   (unexpected)
            + [107] 107   (unexpected)
            + [108] 108   (unexpected)
            + [109] 109   (unexpected)
            + [110] 110   (unexpected)
            + [111] 111   (unexpected)
            + [112] 112   (unexpected)
            + [113] 113   (unexpected)
            + [114] 114   (unexpected)
            + [115] 115   (unexpected)
            + [116] 116   (unexpected)
            + [117] 117   (unexpected)
            + [118] 118   (unexpected)
            + [119] 119   (unexpected)
            … and 10 more differences
          """,
          line: line
        )
      ]
    )
  }

  @Test(.timeLimit(.minutes(1)))
  func oneWrongEffectInFiftyThousandIsShownWithTheEntriesAroundIt() {
    let expected = Array(0..<50_000)
    var actual = expected
    actual[25_000] = -1
    let line = #line + 1
    let issues = withCapturedIssues { assertEffects(of: Outcome(value: (), effects: actual), expected) }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          assertEffects(of:_:) found other effects: got 50000, expected 50000; first difference at index 25000:
              … 24998 equal entries
              [24998] 24998
              [24999] 24999
            ~ [25000] 25000   (expected)
              [25000] -1   (actual)
              [25001] 25001
              [25002] 25002
              … 24997 equal entries
          """,
          line: line
        )
      ]
    )
  }

  @Test(.timeLimit(.minutes(1)))
  func listsThatDifferEverywhereShowTheirFirstTwentyChangesAndSayTheRestWasNotCompared() {
    let spy = Spy<Int, Void>("counter.next")
    for value in 0..<100_000 { spy.record(-value - 1) }
    let line = #line + 1
    let issues = withCapturedIssues { spy.assertCalls(Array(0..<100_000)) }.issues
    let changes = (0..<20).map { "  ~ [\($0)] \($0)   (expected)\n    [\($0)] \(-$0 - 1)   (actual)" }
    #expect(
      issues == [
        CapturedIssue(
          """
          Spy "counter.next" calls differ: got 100000, expected 100000; first difference at index 0:
          \(changes.joined(separator: "\n"))
            … and more differences: past 200 insertions and removals, the rest is not compared
          """,
          line: line
        )
      ]
    )
  }

  @Test(.timeLimit(.minutes(1)))
  func aSpyCalledAHundredThousandTimesListsItsFirstAndLastTenCalls() {
    let spy = Spy<Int, Void>("counter.next")
    for value in 0..<100_000 { spy.record(value) }
    let line = #line + 1
    let issues = withCapturedIssues { spy.assertCalls(count: 99_999) }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          Spy "counter.next" was called 100000 times, expected 99999 times:
            [0] 0
            [1] 1
            [2] 2
            [3] 3
            [4] 4
            [5] 5
            [6] 6
            [7] 7
            [8] 8
            [9] 9
            … 99980 more
            [99990] 99990
            [99991] 99991
            [99992] 99992
            [99993] 99993
            [99994] 99994
            [99995] 99995
            [99996] 99996
            [99997] 99997
            [99998] 99998
            [99999] 99999
          """,
          line: line
        )
      ]
    )
    #expect(issues.first?.message.split(separator: "\n").count == 22)
  }

  @Test func aListOfTwentyOneEntriesShowsThemAll() {
    let spy = Spy<Int, Void>("counter.next")
    for value in 0..<21 { spy.record(value) }
    let issues = withCapturedIssues { spy.assertNoCalls() }.issues
    #expect(issues.map { $0.message.split(separator: "\n").count } == [22])
  }

  @Test func anEntryLongerThanTwoThousandCharactersIsCut() {
    let spy = Spy<String, Void>("log.write")
    spy.record(String(repeating: "a", count: 5_000))
    let line = #line + 1
    let issues = withCapturedIssues { spy.assertCalls(["a"]) }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          Spy "log.write" calls differ: got 1, expected 1; first difference at index 0:
            ~ [0] "a"   (expected)
              [0] "\(String(repeating: "a", count: 1_999))… (5002 characters, the first 2000 shown)   (actual)
          """,
          line: line
        )
      ]
    )
  }

  @Test func aStateDiffShowsItsFirstTwentyChangedLinesAndCountsTheRest() {
    let expected = (0..<40).map { "value\($0): 0" }
    var actual = expected
    for index in 5..<20 { actual[index] = "value\(index): 1" }
    let diff = lineDiff(actual: actual, expected: expected)
    let added = (5..<20).map { "  + value\($0): 1" }
    let removed = (5..<10).map { "  - value\($0): 0" }
    #expect(
      diff == """
            …
            value3: 0
            value4: 0
        \((added + removed).joined(separator: "\n"))
            … and 10 more changed lines
        """
    )
  }

  // MARK: Bodies

  @Test(.timeLimit(.minutes(1)))
  func anUnmatchedRequestWithA50MBBodyShowsItsFirstKiBAndItsSize() async throws {
    let url = "https://api.example.com/upload"
    let body = Data(repeating: UInt8(ascii: "a"), count: 50 * 1024 * 1024)
    let line = #line + 1
    let network = StubNetwork()
    let stubLine = #line + 1
    network.stub(.post(url, body: Data("small".utf8)), .ok())
    let issues = await withCapturedIssues {
      _ = try? await network.send(.post(url, body: body))
    }.issues
    let preview = #""\#(String(repeating: "a", count: 1024))"… (52428800 bytes, the first 1024 shown)"#
    #expect(
      issues == [
        CapturedIssue(
          #"""
          StubNetwork got a request no stub matches: POST https://api.example.com/upload body: \#(preview). The \#
          closest of its 1 stub, made at \#(Self.file):\#(stubLine), differs (+ the request, - the stub):
              POST https://api.example.com/upload
            + body: \#(preview)
            - body: "small"
          Add a stub for this request, or fix the request the code sends; a stub matches the same method, URL and \#
          body, with every header it names. The code that sent it got StubNetworkError.
          """#,
          line: line
        )
      ]
    )
    #expect(issues.first.map { $0.message.utf8.count < 3_000 } == true)
    _ = try await network.send(.post(url, body: Data("small".utf8)))
  }

  @Test func bodiesThatDifferPastTheirPreviewSayWhereTheyDiffer() async throws {
    let url = "https://api.example.com/upload"
    var body = Data(repeating: UInt8(ascii: "a"), count: 2_000)
    let line = #line + 1
    let network = StubNetwork()
    let stubLine = #line + 1
    network.stub(.post(url, body: body), .ok())
    body[1_500] = UInt8(ascii: "b")
    let issues = await withCapturedIssues {
      _ = try? await network.send(.post(url, body: body))
    }.issues
    let preview = #""\#(String(repeating: "a", count: 1024))"… (2000 bytes, the first 1024 shown)"#
    #expect(
      issues == [
        CapturedIssue(
          #"""
          StubNetwork got a request no stub matches: POST https://api.example.com/upload body: \#(preview). The \#
          closest of its 1 stub, made at \#(Self.file):\#(stubLine), differs (+ the request, - the stub):
              POST https://api.example.com/upload
            + body: \#(preview) — differs from the stub's at byte 1500
            - body: \#(preview)
          Add a stub for this request, or fix the request the code sends; a stub matches the same method, URL and \#
          body, with every header it names. The code that sent it got StubNetworkError.
          """#,
          line: line
        )
      ]
    )
    body[1_500] = UInt8(ascii: "a")
    _ = try await network.send(.post(url, body: body))
  }

  @Test func aPreviewCutsTextBetweenCharacters() {
    // "€" is 3 bytes: 341 of them fill 1,023 bytes, and the 1,024th is the first of the next.
    let body = Data(String(repeating: "€", count: 400).utf8)
    #expect(bodyPreview(body) == #""\#(String(repeating: "€", count: 341))"… (1200 bytes, the first 1023 shown)"#)
    #expect(bodyPreview(Data([0xFF] + [UInt8](repeating: 0, count: 2_000))) == "2001 bytes")
    #expect(bodyPreview(Data("short".utf8)) == #""short""#)
  }

  @Test func aRequestListedByACountAssertionShowsItsBodyByItsPreview() async throws {
    let network = StubNetwork()
    let url = "https://api.example.com/upload"
    network.stub(.post(url, body: Data(repeating: UInt8(ascii: "a"), count: 5_000)), .ok())
    _ = try await network.send(.post(url, body: Data(repeating: UInt8(ascii: "a"), count: 5_000)))
    let line = #line + 1
    let issues = withCapturedIssues { network.assertNoRequests() }.issues
    let preview = #""\#(String(repeating: "a", count: 1024))"… (5000 bytes, the first 1024 shown)"#
    #expect(
      issues == [
        CapturedIssue(
          """
          StubNetwork got 1 request, expected none:
            [0] POST https://api.example.com/upload body: \(preview)
          """,
          line: line
        )
      ]
    )
  }
}

/// The lines of a diff as the full table of common subsequences aligned them, before the diff was
/// bounded: the model the bounded diff must match exactly.
private func fullTableLines(_ expected: [Int], _ actual: [Int]) -> [ListDiff.Line] {
  let n = expected.count
  let m = actual.count
  var suffix = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
  for i in stride(from: n - 1, through: 0, by: -1) {
    for j in stride(from: m - 1, through: 0, by: -1) {
      suffix[i][j] =
        expected[i] == actual[j] ? suffix[i + 1][j + 1] + 1 : max(suffix[i + 1][j], suffix[i][j + 1])
    }
  }
  var lines: [ListDiff.Line] = []
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

/// The length of the longest common subsequence of two lists.
private func commonLength(_ expected: [Int], _ actual: [Int]) -> Int {
  var previous = [Int](repeating: 0, count: actual.count + 1)
  for value in expected {
    var current = [0]
    for (j, other) in actual.enumerated() {
      current.append(value == other ? previous[j] + 1 : max(previous[j + 1], current[j]))
    }
    previous = current
  }
  return previous[actual.count]
}
