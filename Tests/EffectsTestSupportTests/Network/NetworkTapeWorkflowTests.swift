import Effects
import EffectsTestHelpers
import Foundation
import Testing

@testable import EffectsTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The tape workflows users meet: a tape in the app's resources, advice that fits the mode, part
/// of a shared tape, and the closest exchange found by what matters most.
@Suite struct NetworkTapeWorkflowTests {
  private static let api = "https://api.example.com"

  private static func temporaryFolder() -> URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("NetworkTapeWorkflowTests-\(UUID().uuidString)", isDirectory: true)
  }

  private static func write(_ text: String, to url: URL) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  // MARK: A tape in the app's resources

  @Test func aResourceCopyIsTracedToItsSourceInThePackage() throws {
    let root = Self.temporaryFolder()
    try Self.write("// swift-tools-version:6.0\n", to: root.appendingPathComponent("Package.swift"))
    let source = root.appendingPathComponent("Sources/Profile/Tapes/me.json")
    try Self.write("{}", to: source)
    // Another file of that name, in another folder: not the same path inside the resources.
    try Self.write("{}", to: root.appendingPathComponent("Sources/Other/me.json"))
    let copy = root.appendingPathComponent(".build/debug/App_Profile.resources/Tapes/me.json")
    try Self.write("{}", to: copy)
    let macCopy = root.appendingPathComponent(".build/debug/App_Profile.bundle/Contents/Resources/Tapes/me.json")
    try Self.write("{}", to: macCopy)
    let testFile = root.appendingPathComponent("Tests/ProfileTests/ProfileTests.swift").path

    #expect(TapeSource.of(copy, testFile: testFile) == source.standardizedFileURL)
    #expect(TapeSource.of(macCopy, testFile: testFile) == source.standardizedFileURL)
    // Not a copy, or no package above the test: the file itself.
    #expect(TapeSource.of(source, testFile: testFile) == nil)
    #expect(TapeSource.of(copy, testFile: "/nowhere/Tests/X.swift") == nil)
  }

  @Test func twoSourcesOfOnePathAreToldApartByTheirBytesOrNotAtAll() throws {
    let root = Self.temporaryFolder()
    try Self.write("", to: root.appendingPathComponent("Package.swift"))
    let profile = root.appendingPathComponent("Sources/Profile/Tapes/me.json")
    let feed = root.appendingPathComponent("Sources/Feed/Tapes/me.json")
    try Self.write(#"{"profile":1}"#, to: profile)
    try Self.write(#"{"feed":1}"#, to: feed)
    let copy = root.appendingPathComponent(".build/debug/App_Feed.resources/Tapes/me.json")
    try Self.write(#"{"feed":1}"#, to: copy)
    let testFile = root.appendingPathComponent("Tests/T.swift").path
    #expect(TapeSource.of(copy, testFile: testFile) == feed.standardizedFileURL)
    let stale = root.appendingPathComponent(".build/debug/App_Stale.resources/Tapes/me.json")
    try Self.write(#"{"stale":1}"#, to: stale)
    #expect(TapeSource.of(stale, testFile: testFile) == nil)
  }

  // MARK: Advice only where recording can happen

  @Test func aPlayOnlyNetworkNeverAdvisesTheEnvironmentVariable() async throws {
    let file = Self.temporaryFolder().appendingPathComponent("me.json")
    try NetworkTape([.init(request: .get("\(Self.api)/me"), response: .ok("me"))]).write(to: file)
    let line = #line + 2
    let issues = await withCapturedIssues {
      let network = StubNetwork(tapeAt: file, mode: .play)
      _ = try? await network.send(.get("\(Self.api)/you"))
    }.issues
    // The request off the tape, and the exchange nothing asked for (when the network goes).
    #expect(issues.map(\.line) == [line, line])
    #expect(issues.allSatisfy { !$0.message.contains("EFFECTS_TAPES") })
    #expect(
      issues.first?.message.contains(
        "Record the tape again if the code now sends this request (this network has mode: .play, which never records: "
          + "record the tape once with mode: .record)"
      ) == true
    )

    let missing = Self.temporaryFolder().appendingPathComponent("missing.json")
    let missingLine = #line + 2
    let missingIssues = withCapturedIssues {
      _ = StubNetwork(tapeAt: missing, mode: .play)
    }.issues
    #expect(
      missingIssues == [
        CapturedIssue(
          """
          StubNetwork(tape:) has no tape to play: There is no network tape at \(missing.path). It plays tapes only \
          (mode: .play), and never records one: record it once with mode: .record where the server can be reached, \
          then commit the file. Requests the code sends meanwhile are reported as not stubbed.
          """,
          line: missingLine
        )
      ]
    )
  }

  // MARK: Part of a shared tape

  private static let screen = NetworkTape(
    ["feed", "profile", "settings"].map { .init(request: .get("\(api)/\($0)"), response: .ok($0)) }
  )

  @Test func aTestUsingPartOfATapeSaysSoAndIsNotFailedForTheRest() async throws {
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let network = StubNetwork()
        network.play(Self.screen)
        network.expectsEveryExchange = false
        _ = try? await network.send(.get("\(Self.api)/feed"))
      }
    }.issues
    #expect(issues == [])
  }

  @Test func byDefaultEveryExchangeOfATapeIsExpectedAndARequestOffTheTapeAlwaysFails() async throws {
    let line = #line + 5
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let network = StubNetwork()
        #expect(network.expectsEveryExchange)
        network.play(Self.screen)
        _ = try? await network.send(.get("\(Self.api)/feed"))
      }
    }.issues
    // The two exchanges nothing asked for, in one report at the line that played the tape.
    #expect(issues.map(\.line) == [line])
    #expect(issues.map(\.kind) == [.unusedStub])
    #expect(
      issues.first?.message.hasPrefix(
        "StubNetwork played a tape here, and nothing asked for 2 of its exchanges:\n  [0] "
      ) == true
    )

    let offTape = await withCapturedIssues {
      await withVirtualTime { _ in
        let network = StubNetwork()
        network.play(Self.screen)
        network.expectsEveryExchange = false
        _ = try? await network.send(.get("\(Self.api)/inbox"))
      }
    }.issues
    #expect(offTape.count == 1)
    #expect(
      offTape.first?.message.hasPrefix("StubNetwork got a request no stub matches: GET \(Self.api)/inbox.") == true
    )
  }

  // MARK: The closest exchange

  @Test func theClosestStubIsFoundByMethodThenPathThenQuery() async {
    let network = StubNetwork()
    network.stub(.get("\(Self.api)/episodes/new"), .ok("new"))
    let line = #line + 1
    network.stub(.get("\(Self.api)/search?q=swift"), .ok("results"))
    network.stub(.post("\(Self.api)/search?q=Swift"), .ok("posted"))
    let issues = await withCapturedIssues {
      _ = try? await network.send(.get("\(Self.api)/search?q=Swift"))
    }.issues
    #expect(
      issues.map(\.message) == [
        """
        StubNetwork got a request no stub matches: GET https://api.example.com/search?q=Swift. The closest of its 3 \
        stubs, made at EffectsTestSupportTests/NetworkTapeWorkflowTests.swift:\(line), differs (+ the request, - the \
        stub):
          + GET https://api.example.com/search?q=Swift
          - GET https://api.example.com/search?q=swift
        Add a stub for this request, or fix the request the code sends; a stub matches the same method, URL and body, \
        with every header it names. The code that sent it got StubNetworkError.
        """
      ]
    )
    _ = withCapturedIssues { network.reportUnusedStubs() }
  }
}

/// Stubs made at one line that nothing used are one report there, whatever their number: a loop of
/// 5,000 stubs printed 5,000 issues.
@Suite struct UnusedStubsAtOneLineTests {
  @Test func fiveThousandStubsMadeAtOneLineAreOneBoundedReport() async {
    let line = #line + 4
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let network = StubNetwork()
        for index in 0..<5_000 { network.stub(.get("https://api.example.com/items/\(index)"), .json("{}")) }
      }
    }.issues
    #expect(issues.map(\.line) == [line])
    #expect(issues.map(\.kind) == [.unusedStub])
    let message = issues.first?.message ?? ""
    #expect(
      message.hasPrefix(
        "5000 StubNetwork stubs made here were never used:\n  [0] GET https://api.example.com/items/0 → 200"
      )
    )
    #expect(message.contains("\n  … 4980 more\n"))
    #expect(
      message.hasSuffix(
        """
        It got no request.
        Remove the stubs if the code should not send these requests, or find why it did not (a request matches \
        with the same method, URL and body).
        """
      )
    )
    #expect(message.unicodeScalars.count < 10_000)
  }

  /// One stub at a line keeps the report it always had.
  @Test func oneUnusedStubKeepsItsOwnReport() async {
    let line = #line + 4
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let network = StubNetwork()
        network.stub(.get("https://api.example.com/me"), .json("{}"))
      }
    }.issues
    #expect(issues.map(\.line) == [line])
    #expect(
      issues.first?.message.hasPrefix("StubNetwork stub made here was never used: GET https://api.example.com/me → 200")
        == true
    )
  }
}
