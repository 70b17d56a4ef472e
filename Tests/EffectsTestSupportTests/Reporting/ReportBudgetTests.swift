import Effects
import EffectsTestHelpers
import Foundation
import Testing

@testable import EffectsTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every text the library prints is within one budget (`ReportBudget`): each input that once made
/// a report of megabytes (#42) now gives one of at most 20,000 characters that says what it cut.
@Suite struct ReportBudgetTests {
  private static let api = "https://api.example.com"
  private static let megabyte = String(repeating: "x", count: 1_000_000)

  /// Asserts that each of `issues` is within the budget, and that there is at least one.
  private static func expectWithinBudget(_ issues: [CapturedIssue], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!issues.isEmpty, sourceLocation: sourceLocation)
    for issue in issues {
      #expect(issue.message.count <= ReportBudget.characters, sourceLocation: sourceLocation)
    }
  }

  @Test func aReportLongerThanTheBudgetKeepsItsStartAndEndAndCountsTheCut() {
    let report = "start " + String(repeating: "·", count: 50_000) + " end"
    let bounded = ReportBudget.bounded(report)
    #expect(bounded.count <= ReportBudget.characters)
    #expect(bounded.hasPrefix("start ··"))
    #expect(bounded.hasSuffix("·· end"))
    #expect(bounded.contains("\n… (32010 characters cut: a report shows at most 20000) …\n"))
    #expect(ReportBudget.bounded("short") == "short")
  }

  @Test func aDiagramOfAMillionClosingBracketsGivesABoundedReport() {
    let diagram = String(repeating: "]", count: 1_000_000)
    let (_, issues) = withCapturedIssues { Timeline<String, Never>(diagram: diagram, tick: .milliseconds(1)) }
    Self.expectWithinBudget(issues)
    let message = issues.first?.message ?? ""
    #expect(message.hasPrefix(#"The timeline diagram "]]]"#))
    #expect(message.contains(#"…" (1000000 characters) cannot be read as written: ']' at character 1 closes no group"#))
    #expect(message.hasSuffix("; … and 999990 more problems."))
    #expect(message.count < 1_000)
  }

  @Test(.virtualTime) func aTimelineOf100000EventsInTheWrongOrderGivesABoundedReport() async {
    let timeline = Timeline<Int, Never>((0..<100_000).reversed().map { .value($0, at: .milliseconds($0)) })
    let (_, issues) = withCapturedIssues { TestScheduler.current.sequence(playing: timeline) }
    Self.expectWithinBudget(issues)
    #expect(issues.first?.message.contains("; … and 99989 more problems. List the events in the order") == true)
  }

  @Test func anUnusedExchangeWithAMegabyteMethodPathAndHeaderGivesABoundedReport() throws {
    let request = NetworkRequest(
      method: Self.megabyte,
      url: try #require(URL(string: "\(Self.api)/\(Self.megabyte)")),
      headers: ["X-Large": Self.megabyte]
    )
    let network = StubNetwork()
    network.play(NetworkTape([.init(request: request, response: .ok())]))
    network.expectsEveryExchange = true
    let issues = withCapturedIssues { network.reportUnusedStubs() }.issues
    Self.expectWithinBudget(issues)
    #expect(issues.first?.message.contains("XXX… (1000000 characters) https://api.example.com/xxx") == true)
    #expect(issues.first?.message.contains(#"["X-Large": "xxx"#) == true)
  }

  @Test func anUnusedExchangeWithFortyLargeHeadersGivesABoundedReport() {
    let headers = Dictionary(
      uniqueKeysWithValues: (0..<40).map { ("X-Header-\($0 + 10)", String(repeating: "v", count: 4_096)) }
    )
    let network = StubNetwork()
    network.play(NetworkTape([.init(request: .get("\(Self.api)/a", headers: headers), response: .ok())]))
    network.expectsEveryExchange = true
    let issues = withCapturedIssues { network.reportUnusedStubs() }.issues
    Self.expectWithinBudget(issues)
    #expect(issues.first?.message.contains(#"vvv… (4096 characters)", … and 20 more]"#) == true)
  }

  @Test func anUnusedExchangeWithATwoMegabyteURLGivesABoundedReport() throws {
    let url = try #require(URL(string: "\(Self.api)/?q=\(String(repeating: "y", count: 2_000_000))"))
    let network = StubNetwork()
    network.play(NetworkTape([.init(request: NetworkRequest(url: url), response: .ok())]))
    network.expectsEveryExchange = true
    let issues = withCapturedIssues { network.reportUnusedStubs() }.issues
    Self.expectWithinBudget(issues)
    #expect(issues.first?.message.contains("yyy… (2000027 characters) → 200. It got no request.") == true)
  }

  @Test func aRequestWithAMegabyteHeaderThatNoStubMatchesGivesABoundedReport() async {
    let network = StubNetwork()
    // A stub matches a request carrying every header it names: this one names the header.
    network.stub(.get("\(Self.api)/me", headers: ["X-Large": "small"]), .ok("me"))
    let issues = await withCapturedIssues {
      _ = try? await network.send(.get("\(Self.api)/me", headers: ["X-Large": Self.megabyte]))
      network.reportUnusedStubs()
    }.issues
    Self.expectWithinBudget(issues)
    #expect(issues.count == 2)
    #expect(issues.first?.message.hasPrefix(#"StubNetwork got a request no stub matches: GET "#) == true)
    #expect(issues.last?.message.contains(#"["X-Large": "xxx"#) == true)
    #expect(issues.last?.message.contains(#"xxx… (1000000 characters)"]"#) == true)
  }

  private struct LargeError: Error, CustomStringConvertible {
    var description: String { String(repeating: "e", count: 2_000_000) }
  }

  @Test func aLiveErrorWithATwoMegabyteDescriptionGivesABoundedReport() async {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("ReportBudgetTests-\(UUID().uuidString)", isDirectory: true)
      .appendingPathComponent("tape.json")
    let live = StubNetwork()
    live.stub(.get("\(Self.api)/me"), throwing: LargeError())
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        let network = StubNetwork(tapeAt: file, mode: .record, live: live)
        let client = Task { _ = try? await network.send(.get("\(Self.api)/me")) }
        await scheduler.run()
        await client.value
      }
    }.issues
    Self.expectWithinBudget(issues)
  }

  /// The budget counts Unicode scalars: one grapheme of a million combining marks cannot pass as
  /// one character (it made a 2 MB report).
  @Test func oneGraphemeOfAMillionCombiningMarksIsCutToo() {
    let grapheme = "a" + String(repeating: "\u{301}", count: 1_000_000)
    let (_, issues) = withCapturedIssues { Timeline<String, Never>(diagram: grapheme + "]", tick: .milliseconds(1)) }
    #expect(issues.count == 1)
    #expect(issues.allSatisfy { $0.message.unicodeScalars.count <= ReportBudget.characters })
    #expect(issues.first?.message.contains("…\" (1000002 characters)") == true)
    #expect(ReportBudget.bounded(String(repeating: grapheme, count: 1)).unicodeScalars.count <= ReportBudget.characters)
  }

  /// A duration past what `Duration.components` holds is spelled by its bound: a report of one
  /// never traps (they crashed the process in reports of timelines, effects and stubs).
  @Test func durationsTooLongForTheirComponentsAreSpelledNotATrap() {
    let huge = Duration.seconds(Int64.max) * 10
    #expect(huge.literal == "more than .seconds(9223372036854775807)")
    #expect((.zero - huge).literal == "less than .seconds(-9223372036854775808)")
    #expect(Effect.after(huge, [.print("x")]).description.contains("more than .seconds(9223372036854775807)"))
    let (_, issues) = withCapturedIssues {
      _ = Timeline<String, Never>(diagram: "ab", tick: huge)
      // The one duration with no negation (`Duration(attoseconds:)` is macOS 15 and later).
      if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
        _ = Timeline<String, Never>(diagram: "ab", tick: Duration(attoseconds: .min))
      } else {
        _ = Timeline<String, Never>(diagram: "ab", tick: .zero - huge)
      }
    }
    #expect(issues.count == 2)
    #expect(issues.first?.message.contains("the diagram reaches 1 × more than .seconds(9223372036854775807)") == true)
  }

  @Test(.virtualTime) func aPlayedEventTooLateForItsComponentsIsReportedNotATrap() {
    let huge = Duration.seconds(Int64.max) * 10
    let (_, issues) = withCapturedIssues {
      _ = TestScheduler.current.sequence(
        playing: Timeline<String, Never>([.value("a", at: huge), .finished(at: .seconds(1))])
      )
    }
    #expect(issues.first?.message.contains("more than .seconds(9223372036854775807)") == true)
  }

  @Test func aLineOnStandardErrorIsWithinTheBudget() {
    let lines = Locked<[String]>([])
    StandardErrorSink.$current.withValue({ line in lines.withLock { $0.append(line) } }) {
      warn(Self.megabyte)
    }
    let said = lines.withLock { $0 }
    #expect(said.count == 1)
    #expect(said.allSatisfy { $0.count <= ReportBudget.characters + "swift-effects: ".count })
    #expect(said.first?.contains("characters cut: a report shows at most 20000") == true)
  }
}
