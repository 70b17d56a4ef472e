import Effects
import EffectsTestHelpers
import Foundation
import Testing

@testable import EffectsTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A tape recorded from a real server (a small JSON API on the loopback interface), then played
/// back with the server stopped: the same models, the recorded latencies exact on virtual time,
/// and what the tape did not foresee reported with its exact text and line.
@Suite(.serialized) struct NetworkTapeRoundTripTests {
  private static let file = "EffectsTestSupportTests/NetworkTapeRoundTripTests.swift"

  private struct Session: Decodable, Equatable {
    var token: String
    var user: User
  }

  private struct User: Decodable, Equatable {
    var name: String
  }

  private struct Profile: Decodable, Equatable {
    var id: String
    var name: String
    var location: String
  }

  /// What the client saw, and when, in virtual time.
  private struct Trace: Equatable {
    var session: Session
    var profile: Profile
    var signedInAt: Duration
    var loadedAt: Duration
  }

  /// Signs in, then loads the profile with the session's token: the app code under test.
  private static func signInAndLoad(
    _ network: any Network,
    at baseURL: String,
    clock: TestScheduler
  ) async throws -> Trace {
    let login = try await network.send(
      .post(
        "\(baseURL)/login",
        headers: ["Content-Type": "application/json"],
        body: Data(#"{"user":"ada","password":"hunter2"}"#.utf8)
      )
    )
    let session = try login.decode(Session.self)
    let signedInAt = clock.elapsed
    let profile = try await network.send(
      .get("\(baseURL)/profiles/42", headers: ["Authorization": "Bearer \(session.token)"])
    )
    return Trace(
      session: session,
      profile: try profile.decode(Profile.self),
      signedInAt: signedInAt,
      loadedAt: clock.elapsed
    )
  }

  private static func server() throws -> LocalHTTPServer {
    try LocalHTTPServer(routes: [
      .init(
        method: "POST",
        path: "/login",
        response: NetworkResponse(
          status: 200,
          headers: ["Content-Type": "application/json", "Set-Cookie": "session=s3cr3t"],
          body: Data(#"{"token":"abc123","user":{"name":"Ada"}}"#.utf8)
        )
      ),
      .init(
        method: "GET",
        path: "/profiles/42",
        response: .json(#"{"id":"42","name":"Ada Lovelace","location":"London"}"#)
      ),
    ])
  }

  private static let redaction = NetworkTape.Redaction.standard.adding(bodyFields: ["token", "password"])

  private static func temporaryTape() -> URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("NetworkTapeRoundTripTests-\(UUID().uuidString)", isDirectory: true)
      .appendingPathComponent("session.json")
  }

  /// Records the session from a live server into a new tape; answers the tape's file, the server's
  /// address and what the client saw.
  private static func record() async throws -> (file: URL, baseURL: String, trace: Trace) {
    let server = try server()
    defer { server.stop() }
    let file = temporaryTape()
    let baseURL = server.baseURL
    let trace = try await withVirtualTime { scheduler in
      let network = StubNetwork(tapeAt: file, mode: .record, live: URLSessionNetwork(), redacting: redaction)
      let client = Task { try await signInAndLoad(network, at: baseURL, clock: scheduler) }
      await scheduler.run()
      return try await client.value
    }
    return (file, baseURL, trace)
  }

  @Test func aSessionRecordedFromARealServerPlaysBackTheSameWithTheServerStopped() async throws {
    let (file, baseURL, recorded) = try await Self.record()
    #expect(recorded.session == Session(token: "abc123", user: User(name: "Ada")))
    #expect(recorded.profile == Profile(id: "42", name: "Ada Lovelace", location: "London"))

    // What must not be kept never reaches the file.
    let text = try String(contentsOf: file, encoding: .utf8)
    for secret in ["abc123", "hunter2", "s3cr3t"] {
      #expect(!text.contains(secret), "\(secret) is in the tape")
    }
    let tape = try NetworkTape(contentsOf: file)
    #expect(tape.exchanges.count == 2)
    #expect(tape.exchanges[0].response.value(forHeader: "Set-Cookie") == "<redacted>")
    #expect(tape.exchanges[1].request.value(forHeader: "Authorization") == "<redacted>")
    // The recording run saw the responses after their recorded latencies, as a playback does.
    let (signIn, load) = (tape.exchanges[0].latency, tape.exchanges[1].latency)
    #expect(recorded.signedInAt == signIn)
    #expect(recorded.loadedAt == signIn + load)

    // Played back, 100 times, with the server stopped: the same models, at the same instants.
    var traces: [Trace] = []
    for _ in 0..<100 {
      let trace = try await withVirtualTime { scheduler in
        let network = StubNetwork(tapeAt: file, mode: .play)
        let client = Task { try await Self.signInAndLoad(network, at: baseURL, clock: scheduler) }
        await scheduler.run()
        return try await client.value
      }
      traces.append(trace)
    }
    let expected = Trace(
      session: Session(token: "<redacted>", user: User(name: "Ada")),
      profile: recorded.profile,
      signedInAt: signIn,
      loadedAt: signIn + load
    )
    #expect(traces.filter { $0 != expected }.count == 0)
  }

  @Test func aPlayedResponseArrivesAtItsRecordedLatencyExactly() async throws {
    let (file, baseURL, _) = try await Self.record()
    let tape = try NetworkTape(contentsOf: file)
    let signIn = tape.exchanges[0].latency
    try #require(signIn > .microseconds(1))
    await withVirtualTime { scheduler in
      let network = StubNetwork(tapeAt: file, mode: .play)
      let signedIn = Locked(false)
      let client = Task {
        _ = try await network.send(
          .post(
            "\(baseURL)/login",
            headers: ["Content-Type": "application/json"],
            body: Data(#"{"user":"ada","password":"another"}"#.utf8)
          )
        )
        signedIn.withLock { $0 = true }
        _ = try await network.send(.get("\(baseURL)/profiles/42", headers: ["Authorization": "Bearer x"]))
      }
      await scheduler.advance(by: signIn - .microseconds(1))
      #expect(signedIn.withLock { $0 } == false)
      await scheduler.advance(by: .microseconds(1))
      #expect(signedIn.withLock { $0 } == true)
      await scheduler.run()
      _ = await client.result
    }
  }

  @Test func aRequestTheTapeDoesNotHoldIsReportedWithTheClosestExchange() async throws {
    let (file, baseURL, _) = try await Self.record()
    let line = #line + 3
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        let network = StubNetwork(tapeAt: file, mode: .play)
        let client = Task {
          _ = try? await network.send(.get("\(baseURL)/profiles/7", headers: ["Authorization": "Bearer x"]))
          _ = try await Self.signInAndLoad(network, at: baseURL, clock: scheduler)
        }
        await scheduler.run()
        _ = await client.result
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          StubNetwork got a request no stub matches: GET \(baseURL)/profiles/7 ["Authorization": "<redacted>"]. The \
          closest of its 2 stubs, exchange 2 of 2 of the tape at \(file.path), played at \(Self.file):\(line), \
          differs (+ the request, - the stub):
            + GET \(baseURL)/profiles/7
            - GET \(baseURL)/profiles/42
              Authorization: <redacted>
          Record the tape again if the code now sends this request (this network has mode: .play, which never \
          records: record the tape once with mode: .record), or fix the request the code sends; a stub matches the \
          same method, URL and body, with every header it names. The code that sent it got StubNetworkError.
          """,
          line: line
        )
      ]
    )
  }

  @Test func anExchangeNothingAskedForIsReportedWhenTheScopeEnds() async throws {
    let (file, baseURL, _) = try await Self.record()
    let line = #line + 3
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        let network = StubNetwork(tapeAt: file, mode: .play)
        let client = Task {
          try await network.send(
            .post(
              "\(baseURL)/login",
              headers: ["Content-Type": "application/json"],
              body: Data(#"{"user":"ada","password":"x"}"#.utf8)
            )
          )
        }
        await scheduler.run()
        _ = await client.result
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          StubNetwork played a tape here, and nothing asked for exchange 2 of 2 of the tape at \(file.path): GET \
          \(baseURL)/profiles/42 ["Authorization": "<redacted>"] → 200 ["Cache-Control": "no-store", "Content-Type": \
          "application/json"] body: "{\\"id\\":\\"42\\",\\"location\\":\\"London\\",\\"name\\":\\"Ada Lovelace\\"}". It got:
            [0] POST \(baseURL)/login ["Content-Type": "application/json"] body: \
          "{\\"password\\":\\"<redacted>\\",\\"user\\":\\"ada\\"}"
          Record the tape again if the code no longer sends this request (this network has mode: .play, which never \
          records: record the tape once with mode: .record), or find why it did not (a request matches with the same \
          method, URL and body, and every header the tape names). A test that uses part of a tape says so: \
          network.expectsEveryExchange = false.
          """,
          line: line
        )
      ]
    )
  }

  // MARK: Tapes that cannot be played or recorded

  @Test func aMissingTapeIsReportedWithHowToRecordIt() {
    let file = Self.temporaryTape()
    let line = #line + 2
    let issues = withCapturedIssues {
      _ = StubNetwork(tapeAt: file, mode: .play)
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          StubNetwork(tape:) has no tape to play: There is no network tape at \(file.path). It plays tapes only \
          (mode: .play), and never records one: record it once with mode: .record where the server can be reached, \
          then commit the file. Requests the code sends meanwhile are reported as not stubbed.
          """,
          line: line
        )
      ]
    )
  }

  @Test func aCorruptTapeIsReportedNamingTheFileAndThePlace() throws {
    let file = Self.temporaryTape()
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(#"{"format":1,"exchanges":[{"request":{"method":"GET","url":"https://a.b"}}]}"#.utf8).write(to: file)
    let line = #line + 2
    let issues = withCapturedIssues {
      _ = StubNetwork(tapeAt: file, mode: .play)
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          StubNetwork(tape:) cannot play its tape. The network tape at \(file.path) is not a tape: \
          exchanges[0].response: the field is missing. A tape is the JSON that NetworkTape.write(to:) writes, \
          {"format": 1, "exchanges": [{"request": …, "response": …, "latencyMilliseconds": …}]}: fix the file, or \
          record it again.
          """,
          line: line
        )
      ]
    )
  }

  @Test func aTapeThatCannotBeWrittenIsReportedOnceAtTheLineThatAskedForIt() throws {
    let blocker = Self.temporaryTape()
    try FileManager.default.createDirectory(at: blocker.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data().write(to: blocker)
    let file = blocker.appendingPathComponent("tape.json")
    let line = #line + 2
    let issues = withCapturedIssues {
      _ = StubNetwork(tapeAt: file, mode: .record, live: StubNetwork())
    }.issues
    #expect(issues.count == 1)
    #expect(issues.first?.line == line)
    #expect(
      issues.first?.message.hasPrefix(
        "StubNetwork(tape:) cannot record: The network tape at \(file.path) cannot be written: "
      ) == true
    )
    #expect(
      issues.first?.message.hasSuffix("Record it into a folder this process can write to. What it records is lost.")
        == true
    )
  }

  @Test func aRecordingThatGetsNoResponseIsReportedAndLeavesTheTapeAsItWas() async throws {
    let file = Self.temporaryTape()
    let kept = NetworkTape([.init(request: .get("https://api.example.com/me"), response: .ok("kept"))])
    try kept.write(to: file)
    let before = try Data(contentsOf: file)
    let live = StubNetwork()
    live.stub(.get("https://api.example.com/me"), throwing: URLError(.cannotConnectToHost))
    let line = #line + 3
    let (thrown, issues) = await withCapturedIssues { () async -> (any Error)? in
      await withVirtualTime { _ in
        let network = StubNetwork(tapeAt: file, mode: .record, live: live)
        do {
          _ = try await network.send(.get("https://api.example.com/me"))
          return nil
        } catch {
          return error
        }
      }
    }
    #expect(thrown as? URLError == URLError(.cannotConnectToHost))
    #expect(
      issues == [
        CapturedIssue(
          """
          StubNetwork(tape:) is recording the tape at \(file.path), and the live network gave no response to GET \
          https://api.example.com/me: \(URLError(.cannotConnectToHost)). The request is not on the tape, and the code \
          that sent it got the error. Record where the server can be reached.
          """,
          line: line
        )
      ]
    )
    #expect(try Data(contentsOf: file) == before)
  }

  @Test func twoNetworksRecordingOneTapeAtOnceAreReported() throws {
    let file = Self.temporaryTape()
    let first = StubNetwork(tapeAt: file, mode: .record, live: StubNetwork())
    let line = #line + 2
    let issues = withCapturedIssues {
      _ = StubNetwork(tapeAt: file, mode: .record, live: StubNetwork())
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          StubNetwork(tape:) records the tape at \(file.path), which another StubNetwork of this process is \
          recording too (a test of the same name running in parallel, or two networks in one test): the two would \
          overwrite each other. Give each test a tape of its own: StubNetwork(tape: "…") with a name of its own.
          """,
          line: line
        )
      ]
    )
    #expect(first.tape == NetworkTape())
  }

  @Test func aTapeWithNoExchangeSaysSoWhenARequestComes() async throws {
    let file = Self.temporaryTape()
    try NetworkTape().write(to: file)
    let line = #line + 1
    let network = StubNetwork(tapeAt: file, mode: .play)
    let issues = await withCapturedIssues {
      _ = try? await network.send(.get("https://api.example.com/me"))
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          StubNetwork got a request no stub matches: GET https://api.example.com/me. It plays the tape at \
          \(file.path), which holds no exchange (it was recorded while no request got a response, or it could not \
          be read: see the issue at the line that made the network). Record it again where the server can be \
          reached (this network has mode: .play, which never records: record the tape once with mode: .record). The \
          code that sent it got StubNetworkError.
          """,
          line: line
        )
      ]
    )
  }

  @Test func theTapeANetworkPlaysOrRecordsCanBeReadAndTheFirstRecordingIsNoted() async throws {
    let tape = NetworkTape([.init(request: .get("https://api.example.com/ping"), response: .ok("pong"))])
    let played = StubNetwork()
    played.play(tape)
    #expect(played.tape == tape)
    #expect(try await played.send(.get("https://api.example.com/ping")).text == "pong")
    #expect(StubNetwork().tape == nil)

    let live = StubNetwork()
    live.stub(.get("https://api.example.com/ping"), .ok("pong"))
    let file = Self.temporaryTape()
    let lines = Locked<[String]>([])
    let recorded = await StandardErrorSink.$current.withValue({ line in lines.withLock { $0.append(line) } }) {
      await withVirtualTime { scheduler in
        let network = StubNetwork(tapeAt: file, mode: .record, live: live)
        let client = Task {
          _ = try? await network.send(.get("https://api.example.com/ping"))
          _ = try? await network.send(.get("https://api.example.com/ping"))
        }
        await scheduler.run()
        await client.value
        return network.tape
      }
    }
    #expect(recorded?.exchanges.map(\.response.text) == ["pong", "pong"])
    #expect(recorded == (try NetworkTape(contentsOf: file)))
    #expect(
      lines.withLock { $0 } == ["swift-effects: recorded the network tape \(file.path): commit it with the test"]
    )
  }

  @Test func aStubMadeByHandComesBeforeTheTapesExchange() async throws {
    let network = StubNetwork()
    network.play(NetworkTape([.init(request: .get("https://api.example.com/me"), response: .ok("taped"))]))
    network.stub(.get("https://api.example.com/me"), .ok("by hand"))
    #expect(try await network.send(.get("https://api.example.com/me")).text == "by hand")
    #expect(try await network.send(.get("https://api.example.com/me")).text == "by hand")
    let issues = withCapturedIssues { network.reportUnusedStubs() }.issues
    #expect(issues.count == 1)
    #expect(
      issues.first?.message.hasPrefix("StubNetwork played a tape here, and nothing asked for exchange 1 of 1") == true
    )
  }

  @Test func aTapeRecordedAgainInALaterScopeIsNotReportedAsRecordedTwice() async {
    let file = Self.temporaryTape()
    let live = StubNetwork()
    live.stub(.get("https://api.example.com/ping"), .ok("pong"))
    var networks: [StubNetwork] = []  // kept alive, as an XCTest case keeps its properties
    let issues = await withCapturedIssues {
      for _ in 0..<2 {
        await withVirtualTime { scheduler in
          let network = StubNetwork(tapeAt: file, mode: .record, live: live)
          networks.append(network)
          let client = Task { _ = try? await network.send(.get("https://api.example.com/ping")) }
          await scheduler.run()
          await client.value
        }
      }
    }.issues
    #expect(issues == [])
    #expect(networks.count == 2)
  }

  // MARK: Choosing

  @Test func automaticallyATapeIsRecordedWhenMissingOrAskedForAndNeverOnCI() throws {
    let missing = Self.temporaryTape()
    let present = Self.temporaryTape()
    try NetworkTape().write(to: present)
    #expect(TapeChoice(mode: .automatic, file: missing, environment: [:]) == .record)
    #expect(TapeChoice(mode: .automatic, file: present, environment: [:]) == .play)
    #expect(TapeChoice(mode: .automatic, file: present, environment: ["EFFECTS_TAPES": "record"]) == .record)
    #expect(TapeChoice(mode: .automatic, file: missing, environment: ["CI": "true"]) == .play)
    #expect(TapeChoice(mode: .automatic, file: present, environment: ["CI": "1", "EFFECTS_TAPES": "record"]) == .play)
    #expect(TapeChoice(mode: .automatic, file: missing, environment: ["CI": "false"]) == .record)
    #expect(TapeChoice(mode: .record, file: present, environment: ["CI": "true"]) == .record)
    #expect(TapeChoice(mode: .play, file: missing, environment: [:]) == .play)
  }

  @Test func theTapeOfANameIsBesideTheTestInTapes() async {
    let live = StubNetwork()
    live.stub(.get("https://api.example.com/ping"), .ok("pong"))
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("__Tapes__/beside.json")
    defer {
      try? FileManager.default.removeItem(at: file)
      let folder = file.deletingLastPathComponent()
      if (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true {
        try? FileManager.default.removeItem(at: folder)
      }
    }
    await withVirtualTime { scheduler in
      let network = StubNetwork(tape: "beside", mode: .record, live: live)
      let client = Task { _ = try? await network.send(.get("https://api.example.com/ping")) }
      await scheduler.run()
      await client.value
    }
    #expect(FileManager.default.fileExists(atPath: file.path))
  }
}
