import Effects
import EffectsTestHelpers
import Foundation
import Testing

@testable import EffectsTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What keeps a tape safe to commit: the check for credentials before it is written, a tape
/// replaced only by a recording that ended cleanly, a live request that cannot hold the test, and
/// names that stay in the tapes' folder. Each failure with its exact text and line.
@Suite struct NetworkTapeSafetyTests {
  private static let me = "https://api.example.com/me"
  /// Looks like a token (letters and digits, 40 characters): made up.
  private static let token = "Zk3q9Xw2Lm8Vb4Ns7Tp1Rc6Yd5Hg0Je2Ua9Wo3Qi"

  private static func temporaryFolder() -> URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("NetworkTapeSafetyTests-\(UUID().uuidString)", isDirectory: true)
  }

  private static func temporaryTape() -> URL {
    temporaryFolder().appendingPathComponent("tape.json")
  }

  /// Records `requests` (answered by `live`) into `file` with `redaction`, each sent in turn
  /// whatever the previous one got; answers the issues and the lines said on standard error.
  private static func record(
    _ requests: [NetworkRequest],
    from live: StubNetwork,
    into file: URL,
    redacting redaction: NetworkTape.Redaction,
    line: UInt = #line
  ) async -> (issues: [CapturedIssue], lines: [String]) {
    let lines = Locked<[String]>([])
    let issues = await StandardErrorSink.$current.withValue({ line in lines.withLock { $0.append(line) } }) {
      await withCapturedIssues {
        await withVirtualTime { scheduler in
          let network = StubNetwork(tapeAt: file, mode: .record, live: live, redacting: redaction, line: line)
          let client = Task {
            for request in requests { _ = try? await network.send(request) }
          }
          await scheduler.run()
          await client.value
        }
      }.issues
    }
    return (issues, lines.withLock { $0 })
  }

  // MARK: The check before the disk

  @Test func aBearerCredentialTheRedactionDoesNotNameIsNeverWritten() async throws {
    let file = Self.temporaryTape()
    let request = NetworkRequest.get(Self.me, headers: ["Authorization": "Bearer \(Self.token)"])
    let live = StubNetwork()
    live.stub(request, .ok("me"))
    let line: UInt = #line + 1
    let (issues, _) = await Self.record([request], from: live, into: file, redacting: .none, line: line)
    #expect(
      issues == [
        CapturedIssue(
          """
          StubNetwork(tape:) did not write the tape at \(file.path): it holds what looks like a credential, which a \
          tape committed to git must not (the file is as it was):
          - exchange 1 of 1, request.headers.Authorization: a Bearer credential, 47 \
          characters. Redact it: .standard.adding(headers: ["Authorization"]); or, if it is no secret (a fake of the \
          test's), keep it: .standard.keeping(headers: ["Authorization"]), or every value that starts like it: \
          .standard.keeping(valuesStartingWith: ["Bearer "]).
          """,
          line: Int(line)
        )
      ]
    )
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  @Test func aJWTInAResponseFieldOfAnyNameIsFoundAndAFieldKeptByNameIsWritten() async throws {
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg"
    let request = NetworkRequest.get("\(Self.api)/session")
    let live = StubNetwork()
    live.stub(request, .json(#"{"user":"ada","data":{"grant":"\#(jwt)"}}"#))
    let file = Self.temporaryTape()
    let line: UInt = #line + 1
    let (issues, _) = await Self.record([request], from: live, into: file, redacting: .standard, line: line)
    #expect(
      issues == [
        CapturedIssue(
          """
          StubNetwork(tape:) did not write the tape at \(file.path): it holds what looks like a credential, which a \
          tape committed to git must not (the file is as it was):
          - exchange 1 of 1, response.json.data.grant: a JSON Web Token (eyJ…), \
          \(jwt.count) characters. Redact it: .standard.adding(bodyFields: ["grant"]); or, if it is no secret (a fake \
          of the test's), keep it: .standard.keeping(bodyFields: ["grant"]), or every value that starts like it: \
          .standard.keeping(valuesStartingWith: ["eyJ"]).
          """,
          line: Int(line)
        )
      ]
    )
    #expect(!FileManager.default.fileExists(atPath: file.path))

    let kept = await Self.record(
      [request],
      from: live,
      into: file,
      redacting: .standard.keeping(bodyFields: ["grant"])
    )
    #expect(kept.issues == [])
    #expect(try String(contentsOf: file, encoding: .utf8).contains(jwt))
  }

  @Test func aKeyInATextBodyIsFoundByItsPrefixAndKeptByIt() async throws {
    let key = "ghp_" + Self.token
    let request = NetworkRequest.get("\(Self.api)/setup")
    let live = StubNetwork()
    live.stub(request, .ok("export GITHUB_TOKEN=\(key)\n"))
    let file = Self.temporaryTape()
    let line: UInt = #line + 1
    let (issues, _) = await Self.record([request], from: live, into: file, redacting: .none, line: line)
    #expect(
      issues == [
        CapturedIssue(
          """
          StubNetwork(tape:) did not write the tape at \(file.path): it holds what looks like a credential, which a \
          tape committed to git must not (the file is as it was):
          - exchange 1 of 1, response.text: a GitHub token (ghp_…), 44 characters. The \
          body is neither JSON nor a form, so no field of it can be redacted: leave it out whole with \
          .standard.adding(bodyFields: ["ghp_"]); or, if it is no secret (a fake of the test's), keep it: \
          .standard.keeping(valuesStartingWith: ["ghp_"]).
          """,
          line: Int(line)
        )
      ]
    )
    let kept = await Self.record(
      [request],
      from: live,
      into: file,
      redacting: .none.keeping(valuesStartingWith: ["ghp_"])
    )
    #expect(kept.issues == [])
    #expect(try String(contentsOf: file, encoding: .utf8).contains(key))
  }

  @Test func aLongRandomValueInAFieldNamedAsASecretIsFound() {
    let tape = NetworkTape([
      .init(request: .get(Self.me), response: .json(#"{"sessionKey":"\#(Self.token)","title":"\#(Self.token)"}"#))
    ])
    let secrets = tape.secrets(keeping: .standard)
    #expect(secrets.map(\.path) == ["response.json.sessionKey"])
    #expect(secrets.map(\.kind) == ["a long random value in a field named sessionKey"])
    #expect(tape.secrets(keeping: .standard.keeping(bodyFields: ["sessionKey"])) == [])
  }

  @Test(arguments: [
    "Bearer is how this API is called",
    "eyJ.eyJ.x",
    "AKIA-short",
    "The basics of tokens",
    "task_live_1234567890abcdefghij",
    "<redacted>",
  ])
  func proseThatMentionsACredentialIsNotOne(_ text: String) {
    let tape = NetworkTape([
      .init(request: .get(Self.me, headers: ["X-Note": text]), response: .ok(text))
    ])
    #expect(tape.secrets(keeping: .none) == [])
  }

  @Test func whatTheStandardRedactionLeavesOutIsNeverReported() {
    let recorded = NetworkTape.Redaction.standard.apply(
      to: .init(
        request: .get(
          "https://ada:\(Self.token)@api.example.com/me?access_token=\(Self.token)",
          headers: ["Authorization": "Bearer \(Self.token)"]
        ),
        response: .json(#"{"access_token":"\#(Self.token)","refresh_token":"ghp_\#(Self.token)"}"#)
      )
    )
    #expect(NetworkTape([recorded]).secrets(keeping: .standard) == [])
  }

  @Test func aHugeBinaryBodyIsCheckedToItsEnd() {
    var body = Data(repeating: 0xFF, count: 8_000_000)
    body.append(Data(" AKIAABCDEFGHIJKLMNOP".utf8))
    let tape = NetworkTape([.init(request: .get(Self.me), response: NetworkResponse(body: body))])
    let secrets = tape.secrets(keeping: .none)
    #expect(secrets.map(\.path) == ["response.base64"])
    #expect(secrets.map(\.kind) == ["an AWS access key id (AKIA…)"])
  }

  @Test func theReportsOfATapeNetworkShowRequestsAsTheTapeWould() async throws {
    let network = StubNetwork()
    network.play(NetworkTape([.init(request: .get("\(Self.api)/me"), response: .ok("me"))]))
    let sent = NetworkRequest.post(
      "\(Self.api)/login",
      headers: ["Authorization": "Bearer \(Self.token)"],
      body: Data(#"{"user":"ada","password":"\#(Self.token)"}"#.utf8)
    )
    let issues = await withCapturedIssues {
      _ = try? await network.send(sent)
      network.reportUnusedStubs()
    }.issues
    #expect(issues.count == 2)
    #expect(issues.allSatisfy { !$0.message.contains(Self.token) })
    #expect(issues.allSatisfy { $0.message.contains(#"["Authorization": "<redacted>"]"#) })
  }

  @Test func aFindIsReportedWithoutTheValueWhereverItIs() async throws {
    let key = "ghp_" + Self.token.prefix(36)
    let request = NetworkRequest.get("\(Self.api)/v1/\(key)/repos")
    let live = StubNetwork()
    live.stub(request, .json(#"{"\#(key)":{"note":"x"}}"#))
    let file = Self.temporaryTape()
    let (issues, _) = await Self.record([request], from: live, into: file, redacting: .standard)
    #expect(issues.count == 1)
    #expect(issues.allSatisfy { !$0.message.contains(key) })
    #expect(issues.first?.message.contains("request.url: a GitHub token (ghp_…), 40 characters.") == true)
    #expect(issues.first?.message.contains("response.json.<ghp_…>: a GitHub token (ghp_…), 40 characters.") == true)
  }

  @Test func JSONNestedInStringsPastTheCheckDepthIsReportedNotFollowed() {
    // 4 strings each holding 100 levels of arrays: 400 levels, past the 256 the check reads.
    var text = #""x""#
    for _ in 0..<4 {
      text = String(repeating: "[", count: 100) + text + String(repeating: "]", count: 100)
      text = String(reflecting: text)
    }
    let body = Data(#"{"v":\#(text)}"#.utf8)
    let tape = NetworkTape([.init(request: .post(Self.me, body: body), response: .ok())])
    #expect(tape.secrets(keeping: .none).map(\.kind) == ["JSON nested deeper than the check reads (256 levels)"])
  }

  @Test func aLongRunOfAlmostTokensIsCheckedInOnePass() {
    let body = String(repeating: "eyJ-", count: 100_000)
    let tape = NetworkTape([.init(request: .get(Self.me), response: .ok(body))])
    #expect(tape.secrets(keeping: .none) == [])
  }

  @Test func aLiveNetworkThatThrowsCancellationOnItsOwnEndsTheRecordingUncleanly() async throws {
    let file = Self.temporaryTape()
    let before = try Self.committed(at: file)
    let live = StubNetwork()
    live.stub(.get("\(Self.api)/a"), .ok("a"))
    live.stub(.get("\(Self.api)/b"), throwing: CancellationError())
    let (issues, _) = await Self.record(
      [.get("\(Self.api)/a"), .get("\(Self.api)/b")],
      from: live,
      into: file,
      redacting: .standard
    )
    #expect(issues.count == 2)
    #expect(issues.last?.message.contains("so the recording did not end cleanly, and the file is as it was") == true)
    #expect(try Data(contentsOf: file) == before)
  }

  @Test func aRequestAfterTheRecordingEndedIsReportedAndNotSent() async throws {
    let file = Self.temporaryTape()
    let live = StubNetwork()
    live.stub(.get("\(Self.api)/a"), .ok("a"))
    let network = await withVirtualTime { _ in
      StubNetwork(tapeAt: file, mode: .record, live: live)
    }
    let line = #line - 2
    let issues = await withCapturedIssues {
      _ = try? await network.send(.get("\(Self.api)/a"))
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          StubNetwork(tape:) got GET https://api.example.com/a after its recording ended (its scope's end): it is \
          not on the tape at \(file.path), and the code that sent it got StubNetworkError. A request sent after the \
          test is done comes from a task the test did not wait for.
          """,
          line: line
        )
      ]
    )
    #expect(live.requests == [])
    _ = withCapturedIssues { live.reportUnusedStubs() }
  }

  // MARK: No tape lost

  private static let api = "https://api.example.com"

  private static func committed(at file: URL) throws -> Data {
    let tape = NetworkTape(
      ["a", "b", "c"].map { .init(request: .get("\(api)/\($0)"), response: .ok($0)) }
    )
    try tape.write(to: file)
    return try Data(contentsOf: file)
  }

  @Test func aReRecordingThatFailsOnceLeavesTheCommittedTapeAsItWas() async throws {
    let file = Self.temporaryTape()
    let before = try Self.committed(at: file)
    let live = StubNetwork()
    live.stub(.get("\(Self.api)/a"), .ok("a"))
    live.stub(.get("\(Self.api)/b"), throwing: URLError(.networkConnectionLost))
    let line: UInt = #line + 3
    let (issues, lines) = await Self.record(
      [.get("\(Self.api)/a"), .get("\(Self.api)/b")],
      from: live,
      into: file,
      redacting: .standard,
      line: line
    )
    #expect(issues.map(\.line) == [Int(line), Int(line)])
    #expect(
      issues.last?.message == """
        StubNetwork(tape:) did not write the tape at \(file.path): 1 of the 2 requests sent to the live network got \
        no response (GET https://api.example.com/b), so the recording did not end cleanly, and the file is as it \
        was. Record again where the server can be reached.
        """
    )
    #expect(try Data(contentsOf: file) == before)
    #expect(lines == [])
  }

  @Test func aCleanReRecordingWithFewerExchangesSaysWhichWent() async throws {
    let file = Self.temporaryTape()
    _ = try Self.committed(at: file)
    let live = StubNetwork()
    live.stub(.get("\(Self.api)/b"), .ok("b2"))
    let (issues, lines) = await Self.record([.get("\(Self.api)/b")], from: live, into: file, redacting: .standard)
    #expect(issues == [])
    #expect(try NetworkTape(contentsOf: file).exchanges.map(\.response.text) == ["b2"])
    #expect(
      lines == [
        """
        swift-effects: recorded the network tape \(file.path) again: 2 of the 3 exchanges of the tape it replaced \
        are not on it (GET https://api.example.com/a, GET https://api.example.com/c); review the change before you \
        commit it
        """
      ]
    )
  }

  @Test func theFileIsUntouchedUntilTheRecordingEnds() async throws {
    let file = Self.temporaryTape()
    let before = try Self.committed(at: file)
    let live = StubNetwork()
    live.stub(.get("\(Self.api)/a"), .ok("new"))
    let during = await withVirtualTime { scheduler in
      let network = StubNetwork(tapeAt: file, mode: .record, live: live)
      let client = Task { _ = try? await network.send(.get("\(Self.api)/a")) }
      await scheduler.run()
      await client.value
      return try? Data(contentsOf: file)
    }
    #expect(during == before)
    #expect(try NetworkTape(contentsOf: file).exchanges.map(\.response.text) == ["new"])
  }

  /// A live network that never answers, and ignores cancellation.
  private final class Silent: Network, Sendable {
    func send(_ request: URLRequest) async throws -> NetworkResponse {
      await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
      throw URLError(.unknown)
    }
  }

  @Test func aLiveRequestWithNoAnswerIsReportedInTimeAndTheScopeGoesOn() async throws {
    let file = Self.temporaryTape()
    let line = #line + 3
    let (thrown, issues) = await withCapturedIssues { () async -> (any Error)? in
      await withVirtualTime { _ in
        let network = StubNetwork(tapeAt: file, mode: .record, live: Silent(), liveTimeout: .milliseconds(50))
        do {
          _ = try await network.send(.get(Self.me))
          return nil
        } catch {
          return error
        }
      }
    }
    #expect(thrown as? URLError == URLError(.timedOut))
    #expect(
      issues == [
        CapturedIssue(
          """
          StubNetwork(tape:) is recording the tape at \(file.path), and the live network gave no answer to GET \
          https://api.example.com/me within .milliseconds(50) (real time). The request is not on the tape, the code \
          that sent it got URLError(.timedOut), and the scope goes on. For a slower server, pass a longer \
          StubNetwork(tape:liveTimeout:).
          """,
          line: line
        )
      ]
    )
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  // MARK: Names

  @Test(arguments: [
    ("../../escaped", "climbs out of it with \"..\""),
    ("/tmp/absolute", "is an absolute path"),
    ("", "is empty"),
    ("a/../../b", "climbs out of it with \"..\""),
    ("users/", "names a folder, not a file"),
    (".json", "names a folder, not a file"),
  ])
  func aTapeNameThatLeavesItsFolderIsReportedAndNothingIsWritten(_ name: String, _ problem: String) async {
    let live = StubNetwork()
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("__Tapes__").path
    let line = #line + 3
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let network = StubNetwork(tape: name, mode: .record, live: live)
        _ = try? await network.send(.get(Self.me))
      }
    }.issues
    #expect(
      issues.first
        == CapturedIssue(
          """
          StubNetwork(tape: \(String(reflecting: name))) names no file in the folder of tapes, \(folder): the name \
          \(problem). A tape's name is a file name, or a path inside that folder ("profile", "users/42"). Nothing is \
          recorded or played: requests the code sends are reported as not stubbed. A tape kept elsewhere is \
          StubNetwork(tapeAt:)'s.
          """,
          line: line
        )
    )
    #expect(issues.count == 2)  // and the request, not stubbed
    #expect(live.requests == [])
  }

  @Test func aSymbolicLinkOutOfTheFolderIsReported() throws {
    let folder = Self.temporaryFolder().appendingPathComponent("__Tapes__")
    let outside = Self.temporaryFolder()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("link"), withDestinationURL: outside)
    let file = folder.appendingPathComponent("link/x.json")
    #expect(
      StubNetwork.problem(ofTapeName: "link/x", file: file, folder: folder)
        == "leads out of it through a symbolic link, to \(outside.resolvingSymlinksInPath().path)"
    )
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("inside"),
      withIntermediateDirectories: true
    )
    try FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent("alias"),
      withDestinationURL: folder.appendingPathComponent("inside")
    )
    #expect(
      StubNetwork.problem(ofTapeName: "alias/x", file: folder.appendingPathComponent("alias/x.json"), folder: folder)
        == nil
    )
    #expect(
      StubNetwork.problem(ofTapeName: "users/42", file: folder.appendingPathComponent("users/42.json"), folder: folder)
        == nil
    )
  }
}
