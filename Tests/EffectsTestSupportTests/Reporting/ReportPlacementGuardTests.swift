import Effects
import EffectsTestHelpers
import Testing

@testable import EffectsTestSupport

/// No report is ever placed in a file of the library (#42): one that would be is placed at the
/// test, saying so, and the library's own suites fail on it wherever they capture reports.
@Suite struct ReportPlacementGuardTests {
  /// A place inside the library's sources, as a bug of the library might name one.
  private static let insideTheLibrary = CallSite(
    fileID: "EffectsTestSupport/Engine.swift",
    filePath: "/work/swift-effects/Sources/EffectsTestSupport/Engine.swift",
    line: 7,
    column: 1
  )

  @Test func aReportPlacedInTheLibraryIsPlacedAtTheTestSayingSo() throws {
    let test = try #require(Test.current)
    withKnownIssue {
      reportIssue("Something went wrong.", kind: .assertionFailed, at: Self.insideTheLibrary)
    } matching: { issue in
      issue.sourceLocation == test.sourceLocation
        && issue.comments.map(\.rawValue) == ["Something went wrong." + misplacedNote + " [ReportKind.assertionFailed]"]
    }
  }

  @Test func aCapturedReportPlacedInTheLibraryFailsTheTestThatCapturedIt() throws {
    let test = try #require(Test.current)
    var captured: [CapturedIssue] = []
    withKnownIssue {
      captured =
        withCapturedIssues {
          reportIssue("Something went wrong.", kind: .assertionFailed, at: Self.insideTheLibrary)
        }.issues
    } matching: { issue in
      issue.comments.map(\.rawValue)
        == [
          "withCapturedIssues captured a report that the library would have placed in its own code: "
            + "Something went wrong." + misplacedNote + " [ReportKind.libraryFault]"
        ]
    }
    #expect(captured.map(\.line) == [test.sourceLocation.line])
  }
}
