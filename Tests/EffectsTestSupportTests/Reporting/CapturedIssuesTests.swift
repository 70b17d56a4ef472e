import Effects
import EffectsTestSupport
import Testing

/// `withCapturedIssues` keeps what the library reports in its scope, and only there.
@Suite struct CapturedIssuesTests {
  struct Refused: Error {}

  @Test func aReportInsideTheScopeIsCapturedWithItsTextAndLine() {
    let line = #line + 2
    let (result, issues) = withCapturedIssues {
      reportIssue("boom", kind: .assertionFailed, at: CallSite())
      return 42
    }
    #expect(result == 42)
    #expect(issues == [CapturedIssue("boom", line: line)])
    #expect(issues.first?.fileID == "EffectsTestSupportTests/CapturedIssuesTests.swift")
  }

  @Test func nothingReportedCapturesNothing() {
    #expect(withCapturedIssues {}.issues.isEmpty)
  }

  @Test func reportsFromChildTasksAreCapturedInOrder() async {
    let line = #line + 2
    let issues = await withCapturedIssues {
      await Task { reportIssue("first", kind: .assertionFailed, at: CallSite()) }.value
      async let second: Void = reportIssue("second", kind: .assertionFailed, at: CallSite())
      await second
    }.issues
    #expect(issues == [CapturedIssue("first", line: line), CapturedIssue("second", line: line + 1)])
  }

  @Test func aReportAfterTheScopeEndedIsRecordedAsUsual() async {
    await withKnownIssue {
      let (gate, open) = AsyncStream<Void>.makeStream()
      let (late, issues) = withCapturedIssues {
        Task {
          for await _ in gate { break }
          reportIssue("late", kind: .assertionFailed, at: CallSite())
        }
      }
      #expect(issues.isEmpty)
      open.yield()
      await late.value
    } matching: { issue in
      issue.comments.map(\.rawValue) == ["late [ReportKind.assertionFailed]"]
    }
  }

  @Test func whatWasCapturedIsRecordedWhenTheBodyThrows() {
    withKnownIssue {
      #expect(throws: Refused.self) {
        try withCapturedIssues {
          reportIssue("kept until the body threw", kind: .assertionFailed, at: CallSite())
          throw Refused()
        }
      }
    } matching: { issue in
      issue.comments.map(\.rawValue) == ["kept until the body threw [ReportKind.assertionFailed]"]
    }
  }

  @Test func nestedScopesEachKeepTheirOwn() {
    let line = #line + 2
    let outer = withCapturedIssues {
      reportIssue("outer", kind: .assertionFailed, at: CallSite())
      let inner = withCapturedIssues { reportIssue("inner", kind: .assertionFailed, at: CallSite()) }.issues
      #expect(inner == [CapturedIssue("inner", line: line + 1)])
    }.issues
    #expect(outer == [CapturedIssue("outer", line: line)])
  }

  @Test func parallelScopesDoNotSeeEachOthersReports() async {
    let counts = await withTaskGroup(of: [CapturedIssue].self) { group in
      for index in 0..<8 {
        group.addTask {
          withCapturedIssues {
            for _ in 0...index { reportIssue("task \(index)", kind: .assertionFailed, at: CallSite()) }
          }.issues
        }
      }
      var all: [[CapturedIssue]] = []
      for await issues in group { all.append(issues) }
      return all
    }
    #expect(counts.count == 8)
    for issues in counts {
      let index = issues.count - 1
      #expect(issues.map(\.message) == Array(repeating: "task \(index)", count: index + 1))
    }
  }
}
