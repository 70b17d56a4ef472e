@testable import Effects
import EffectsTestHelpers
@testable import EffectsTestSupport
import Foundation
import Testing

/// Every report ends with its kind, `[ReportKind.leftoverWork]`, which a test matches instead of
/// the report's words: `Issue.reportKind` in Swift Testing, `ReportKind(reportText:)` on any text.
@Suite struct ReportKindTests {
  static let swiftTestingInATest = TestHostTests.swiftTestingInATest
  static let xcodeInACase = TestHostTests.xcodeInACase
  static let noTests = TestHostTests.noTests

  /// The kind ends the text a report is recorded with, in every place a report goes: after a
  /// space, or on a line of its own after a report of several lines.
  @Test func aReportEndsWithItsKindWhereverItGoes() {
    let line = #line + 2
    let reports = withTestHost(Self.swiftTestingInATest) {
      reportIssue("Something went wrong.", kind: .misuse, at: CallSite())
      reportIssue("Two lists differ:\n  [0] 1", kind: .assertionFailed, at: CallSite())
    }.reports
    let fileID = "EffectsTestSupportTests/ReportKindTests.swift"
    #expect(
      reports == [
        RoutedReport(.swiftTestingIssue, "Something went wrong. [ReportKind.misuse]", fileID: fileID, line: line),
        RoutedReport(
          .swiftTestingIssue,
          "Two lists differ:\n  [0] 1\n[ReportKind.assertionFailed]",
          fileID: fileID,
          line: line + 1
        ),
      ]
    )
    let xcTest = withTestHost(Self.xcodeInACase) { reportIssue("boom", kind: .unusedStub, at: CallSite()) }.reports
    #expect(xcTest.map(\.text) == ["boom [ReportKind.unusedStub]"])
    let lineOnStandardError = #line + 1
    let standardError = withTestHost(Self.noTests) { reportIssue("boom", kind: .unusedStub, at: CallSite()) }.reports
    #expect(
      standardError.map(\.text) == ["swift-effects: \(fileID):\(lineOnStandardError): boom [ReportKind.unusedStub]"]
    )
  }

  /// A report cut to the budget keeps its end, so it keeps its kind, and the whole text, kind
  /// included, stays within the budget.
  @Test func aReportCutToTheBudgetKeepsItsKind() {
    let reports = withTestHost(Self.swiftTestingInATest) {
      reportIssue(String(repeating: "x", count: 1_000_000), kind: .invalidTimeline, at: CallSite())
    }.reports
    #expect(reports.count == 1)
    let text = reports.first?.text ?? ""
    #expect(text.unicodeScalars.count <= ReportBudget.characters)
    #expect(text.hasSuffix("x [ReportKind.invalidTimeline]"))
    #expect(ReportKind(reportText: text) == .invalidTimeline)
  }

  /// The kind is read back from a text that ends with it, and from no other: a tag in the middle,
  /// an empty or malformed name, another library's brackets.
  @Test func theKindIsReadOnlyFromTheEndOfATextThatEndsWithOne() {
    let rows: [(String, ReportKind?)] = [
      ("Spy \"fetch\" has no stub. [ReportKind.unstubbedCall]", .unstubbedCall),
      ("A diff:\n  [0] 1\n[ReportKind.assertionFailed]", .assertionFailed),
      ("trailing whitespace [ReportKind.leftoverWork] \n\t", .leftoverWork),
      ("[ReportKind.leftoverWork]", .leftoverWork),
      ("a kind added later [ReportKind.someFutureKind2]", ReportKind(rawValue: "someFutureKind2")),
      ("in the middle [ReportKind.leftoverWork] and after it", nil),
      ("empty [ReportKind.]", nil),
      ("a space [ReportKind.leftover Work]", nil),
      ("a dot [ReportKind.leftover.work]", nil),
      ("doubled [ReportKind.leftoverWork]]", nil),
      ("no bracket ReportKind.leftoverWork", nil),
      ("another library's [Error.code]", nil),
      ("an #expect: (a → 1) == (b → 2)", nil),
      ("", nil),
      ("]", nil),
    ]
    for (text, kind) in rows {
      #expect(ReportKind(reportText: text) == kind, "\(text.debugDescription)")
    }
    // A huge text is read from its end.
    let huge = String(repeating: "[ReportKind.", count: 200_000) + "] [ReportKind.busyScope]"
    #expect(ReportKind(reportText: huge) == .busyScope)
  }

  /// Each kind's name is the name of its static member, so what a report ends with is what a test
  /// writes; and no two kinds share a name. Read from the catalog's source, so that a kind added
  /// later is checked too.
  @Test func everyKindIsNamedAfterItsMemberAndNamesOnlyIt() throws {
    let source = try String(
      contentsOf: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Effects/Reporting/ReportKind.swift"),
      encoding: .utf8
    )
    let declaration = #/static let (\w+) = ReportKind\(rawValue: "(\w*)"\)/#
    let members = source.matches(of: declaration).map { (String($0.output.1), String($0.output.2)) }
    #expect(members.count >= 28)
    for (member, name) in members {
      #expect(member == name)
      #expect(ReportKind(reportText: ReportKind(rawValue: name).tagged("text")) == ReportKind(rawValue: name))
    }
    #expect(Set(members.map(\.1)).count == members.count)
    #expect(ReportKind.leftoverWork.description == "ReportKind.leftoverWork")
  }

  /// A report recorded as a Swift Testing issue is matched by its kind in `withKnownIssue`; an
  /// `#expect` of the test is not a report of this library, and has none.
  @Test func aKnownIssueMatchesAReportByItsKind() {
    let kinds = Locked<[ReportKind?]>([])
    let fetch = Spy<Int, String>("fetch")
    withKnownIssue {
      _ = try? fetch(42)
      #expect(Bool(false))
    } matching: { issue in
      kinds.withLock { $0.append(issue.reportKind) }
      return true
    }
    #expect(kinds.snapshot == [.unstubbedCall, nil])
  }

  /// An `#expect` whose comment ends as a report does (a test that passes a captured report's text
  /// back into it) is still the test's own expectation, of no kind.
  @Test func anExpectationWhoseCommentEndsWithAKindHasNone() {
    let kinds = Locked<[ReportKind?]>([])
    withKnownIssue {
      #expect(Bool(false), "mine [ReportKind.leftoverWork]")
    } matching: { issue in
      kinds.withLock { $0.append(issue.reportKind) }
      return true
    }
    #expect(kinds.snapshot == [nil])
  }

  /// The end of a scope is matched too: work left asleep is `leftoverWork`.
  @Test func aScopesLeftoverIsMatchedByItsKind() async {
    let kinds = Locked<[ReportKind?]>([])
    await withKnownIssue {
      await withVirtualTime { _ in
        _ = Task { try await Environment.current.continuousClock.sleep(for: .seconds(5)) }
      }
    } matching: { issue in
      kinds.withLock { $0.append(issue.reportKind) }
      return issue.reportKind == .leftoverWork
    }
    #expect(kinds.snapshot == [.leftoverWork])
  }

  /// Reports captured by the library's own suites keep their kind beside their text.
  @Test func aCapturedReportKeepsItsKindBesideItsText() {
    let spy = Spy<String, Void>("tokenStore.save")
    spy.record("abc")
    let line = #line + 1
    let issues = withCapturedIssues { spy.assertCalls(count: 2) }.issues
    #expect(issues.map(\.line) == [line])
    #expect(issues.map(\.kind) == [.assertionFailed])
    #expect(issues.allSatisfy { ReportKind(reportText: $0.message) == nil })
  }
}
