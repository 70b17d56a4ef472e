import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `StubNetwork` answers from stubs, records every request, and reports what the test did not
/// foresee — each report captured here with its exact text and line.
@Suite struct StubNetworkTests {
  private static let file = "EffectsTestSupportTests/StubNetworkTests.swift"
  private static let me = "https://api.example.com/me"

  // MARK: Answering

  @Test func answersAStubbedRequestAndRecordsIt() async throws {
    let network = StubNetwork()
    network.stub(.get(Self.me), .json(#"{"name":"Ada"}"#))
    let response = try await network.send(.get(Self.me))
    #expect(
      response
        == NetworkResponse(
          status: 200,
          headers: ["Content-Type": "application/json"],
          body: Data(#"{"name":"Ada"}"#.utf8)
        )
    )
    #expect(network.requests == [.get(Self.me)])
  }

  @Test func aURLRequestIsRecordedAsTheRequestItMakes() async throws {
    let network = StubNetwork()
    network.stub(.post(Self.me, body: Data("x".utf8)))
    var request = URLRequest(url: URL(string: Self.me)!)
    request.httpMethod = "post"
    request.httpBody = Data("x".utf8)
    request.timeoutInterval = 5
    _ = try await network.send(request)
    network.assertRequests([.post(Self.me, body: Data("x".utf8))])
  }

  @Test func stubsForOneRequestAnswerInOrderAndTheLastKeepsAnswering() async throws {
    let network = StubNetwork()
    network.stub(.get(Self.me), throwing: URLError(.notConnectedToInternet))
    network.stub(.get(Self.me), .status(500))
    network.stub(.get(Self.me), .ok("third"))
    await #expect(throws: URLError(.notConnectedToInternet)) { try await network.send(.get(Self.me)) }
    #expect(try await network.send(.get(Self.me)).status == 500)
    #expect(try await network.send(.get(Self.me)).text == "third")
    #expect(try await network.send(.get(Self.me)).text == "third")
    network.assertRequests(count: 4)
  }

  @Test func aStubMatchesTheHeadersItNamesWhateverElseTheRequestCarries() async throws {
    let network = StubNetwork()
    network.stub(.get(Self.me, headers: ["Authorization": "Bearer abc"]), .ok("signed in"))
    let response = try await network.send(
      .get(Self.me, headers: ["authorization": "Bearer abc", "Accept": "application/json"])
    )
    #expect(response.text == "signed in")
  }

  @Test func aStubMatchesTheBodyExactly() async throws {
    let network = StubNetwork()
    network.stub(.post(Self.me, body: Data("a".utf8)), .ok("a"))
    network.stub(.post(Self.me, body: Data("b".utf8)), .ok("b"))
    #expect(try await network.send(.post(Self.me, body: Data("b".utf8))).text == "b")
    #expect(try await network.send(.post(Self.me, body: Data("a".utf8))).text == "a")
  }

  // MARK: What the test did not foresee

  @Test func anUnmatchedRequestIsReportedWithTheClosestStubAndADiffAtTheLineThatMadeTheNetwork() async throws {
    let line = #line + 1
    let network = StubNetwork()
    let stubLine = #line + 1
    network.stub(.post("https://api.example.com/login", body: Data(#"{"user":"bob"}"#.utf8)), .ok())
    network.stub(.get("https://api.example.com/other"), .ok())
    let (thrown, issues) = await withCapturedIssues { () async -> (any Error)? in
      do {
        _ = try await network.send(.post("https://api.example.com/login", body: Data(#"{"user":"ada"}"#.utf8)))
        return nil
      } catch { return error }
    }
    #expect(
      thrown as? StubNetworkError
        == StubNetworkError(request: .post("https://api.example.com/login", body: Data(#"{"user":"ada"}"#.utf8)))
    )
    #expect(
      issues == [
        CapturedIssue(
          #"""
          StubNetwork got a request no stub matches: POST https://api.example.com/login body: "{\"user\":\"ada\"}". \#
          The closest of its 2 stubs, made at \#(Self.file):\#(stubLine), differs (+ the request, - the stub):
              POST https://api.example.com/login
            + body: "{\"user\":\"ada\"}"
            - body: "{\"user\":\"bob\"}"
          Add a stub for this request, or fix the request the code sends; a stub matches the same method, URL and \#
          body, with every header it names. The code that sent it got StubNetworkError.
          """#,
          line: line
        )
      ]
    )
    _ = try await network.send(.post("https://api.example.com/login", body: Data(#"{"user":"bob"}"#.utf8)))
    _ = try await network.send(.get("https://api.example.com/other"))
  }

  @Test func aRequestToTheTestEnvironmentsNetworkIsReportedAsUnexpectedWhereTheEnvironmentWasMade() async throws {
    let line = #line + 1
    let environment = Environment.test()
    let issues = await withCapturedIssues {
      _ = try? await environment.network.send(.get(Self.me))
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          StubNetwork got a request no stub matches: GET https://api.example.com/me. It has no stubs. Stub what the \
          server should answer before the code under test sends the request: \
          network.stub(.get("https://api.example.com/me"), .ok()). The code that sent it got StubNetworkError.
          """,
          line: line
        )
      ]
    )
  }

  @Test func aStubNeverUsedIsReportedAtItsLineWhenTheScopeEnds() async {
    let stubLine = #line + 4
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let network = StubNetwork()
        network.stub(.get("https://api.example.com/unused"), .status(204))
        network.stub(.get(Self.me), .ok())
        _ = try? await network.send(.get(Self.me))
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          StubNetwork stub made here was never used: GET https://api.example.com/unused → 204. It got:
            [0] GET https://api.example.com/me
          Remove the stub if the code should not send this request, or find why it did not (a request matches with \
          the same method, URL and body).
          """,
          line: stubLine
        )
      ]
    )
  }

  @Test func aStubNeverUsedIsReportedWhenTheNetworkIsReleased() {
    let stubLine = #line + 3
    let issues = withCapturedIssues {
      let network = StubNetwork()
      network.stub(.delete(Self.me), throwing: URLError(.timedOut))
    }.issues
    #expect(issues.map(\.line) == [stubLine])
    #expect(
      issues.first?.message.hasPrefix(
        "StubNetwork stub made here was never used: DELETE https://api.example.com/me → throws "
      )
        == true
    )
    #expect(issues.first?.message.contains(". It got no request.\n") == true)
  }

  @Test func aStubReportedAtTheScopesEndIsNotReportedAgainOnRelease() async {
    let issues = await withCapturedIssues {
      let network = StubNetwork()
      await withVirtualTime { _ in network.stub(.get(Self.me)) }
      _ = network
    }.issues
    #expect(issues.count == 1)
  }

  /// One network through two scopes, one after the other: each scope checks the stubs made in it
  /// (the second scheduler may even be allocated where the first one was).
  @Test func aNetworkUsedInASecondScopeIsCheckedAtThatScopesEnd() async {
    let network = StubNetwork()
    let stubLine = #line + 6
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        network.stub(.get(Self.me))
        _ = try? await network.send(.get(Self.me))
      }
      await withVirtualTime { _ in network.stub(.get("https://api.example.com/unused")) }
      // Reported at the second scope's end, not left for the network's release.
      #expect(network.requests.count == 1)
    }.issues
    expectOneUnusedStub(issues, at: stubLine)
    _ = network
  }

  /// A scope opened on the network's own scheduler (`scheduler.withVirtualTime`) checks it too.
  @Test func aStubMadeInAScopeOnTheNetworksSchedulerIsCheckedAtThatScopesEnd() async {
    let scheduler = TestScheduler()
    let network = StubNetwork(scheduler: scheduler)
    let stubLine = #line + 3
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        network.stub(.get("https://api.example.com/unused"))
      }
    }.issues
    // Reported at the scope's end, inside the capture: the network is held until after it.
    expectOneUnusedStub(issues, at: stubLine)
    _ = network
  }

  /// Expects `issues` to be one report of the unused stub of `.../unused`, at `line`.
  private func expectOneUnusedStub(
    _ issues: [CapturedIssue],
    at line: Int,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(issues.map(\.line) == [line], sourceLocation: sourceLocation)
    #expect(
      issues.first?.message.hasPrefix("StubNetwork stub made here was never used: GET https://api.example.com/unused")
        == true,
      sourceLocation: sourceLocation
    )
  }

  // MARK: The test environment's network

  @Test func stubNetworkIsTheTestEnvironmentsNetworkEvenWhenRecorded() async throws {
    let environment = Environment.test().recording(into: CallLog())
    let network = environment.stubNetwork
    network.stub(.get(Self.me), .ok("Ada"))
    let response = try await environment.network.send(.get(Self.me))
    #expect(response.text == "Ada")
    network.assertRequests([.get(Self.me)])
    #expect(environment.stubNetwork === network)
  }

  @Test func stubNetworkOfAnEnvironmentWithAnotherNetworkIsReportedAtTheRead() {
    var environment = Environment.test()
    environment.network = URLSessionNetwork()
    let line = #line + 2
    let issues = withCapturedIssues {
      _ = environment.stubNetwork
    }.issues
    expectReadIssues(
      issues,
      [
        CapturedIssue(
          """
          environment.network (URLSessionNetwork) is not a StubNetwork, so it has no stubs to set or requests to \
          assert. Read it from an environment made by Environment.test(), or set environment.network = \
          StubNetwork() first.
          """,
          line: line
        )
      ]
    )
  }

  // MARK: Latency

  @Test(.virtualTime) func aLatencyRunsOnTheScopesClock() async throws {
    let scheduler = TestScheduler.current
    let network = StubNetwork()
    network.stub(.get(Self.me), .ok("late"), after: .seconds(2))
    let answer = Task { try await network.send(.get(Self.me)).text }
    await scheduler.advance(by: .seconds(2))
    #expect(try await answer.value == "late")
    #expect(scheduler.elapsed == .seconds(2))
  }

  @Test(.virtualTime) func theTestEnvironmentsNetworkWaitsOnTheScopesClock() async throws {
    let scheduler = TestScheduler.current
    let network = try #require(Environment.current.network as? StubNetwork)
    network.stub(.get(Self.me), .ok("late"), after: .seconds(3))
    let answer = Task { try await Environment.current.network.send(.get(Self.me)).text }
    await scheduler.advance(by: .seconds(3))
    #expect(try await answer.value == "late")
  }

  @Test func aTestEnvironmentMovedIntoAScopeWaitsOnTheScopesClockAndIsCheckedAtItsEnd() async throws {
    let environment = Environment.test()
    let network = try #require(environment.network as? StubNetwork)
    let stubLine = #line + 1
    network.stub(.get("https://api.example.com/unused"))
    let issues = await withCapturedIssues { () async -> Void in
      await withEnvironment(environment) { () async -> Void in
        await withVirtualTime { (scheduler: TestScheduler) async -> Void in
          network.stub(.get(Self.me), .ok("late"), after: .seconds(4))
          let answer = Task { try await Environment.current.network.send(.get(Self.me)).text }
          await scheduler.advance(by: .seconds(4))
          let text = try? await answer.value
          #expect(text == "late")
        }
      }
    }.issues
    #expect(issues.map(\.line) == [stubLine])
  }

  @Test func aLatencyWithNoSchedulerIsReportedAndAnsweredAtOnce() async throws {
    let network = StubNetwork()
    let stubLine = #line + 1
    network.stub(.get(Self.me), .ok("now"), after: .seconds(1))
    let (text, issues) = await withCapturedIssues { try? await network.send(.get(Self.me)).text }
    #expect(text == "now")
    #expect(
      issues == [
        CapturedIssue(
          """
          StubNetwork cannot wait .seconds(1) before answering GET https://api.example.com/me: it has no \
          TestScheduler, so the stub made here answered at once. Send the request inside @Test(.virtualTime) or \
          withVirtualTime { … }, or give the network a scheduler (StubNetwork(scheduler:), \
          StubNetwork(tape:scheduler:)).
          """,
          line: stubLine
        )
      ]
    )
  }

  @Test func aNegativeLatencyIsReportedAndCountsAsZero() async throws {
    let network = StubNetwork(scheduler: TestScheduler())
    let line = #line + 1
    let issues = withCapturedIssues { network.stub(.get(Self.me), .ok(), after: .seconds(-1)) }.issues
    #expect(
      issues == [
        CapturedIssue(
          "StubNetwork.stub got a negative latency, .seconds(-1), and counts it as zero. Pass .zero or more.",
          line: line
        )
      ]
    )
    #expect(try await network.send(.get(Self.me)).status == 200)
  }

  // MARK: Assertions

  @Test func assertRequestsIsCumulativeAndClearStartsOver() async throws {
    let network = StubNetwork()
    network.stub(.get(Self.me))
    _ = try await network.send(.get(Self.me))
    network.assertRequests([.get(Self.me)])
    _ = try await network.send(.get(Self.me))
    network.assertRequests([.get(Self.me), .get(Self.me)])
    network.clear()
    network.assertNoRequests()
    _ = try await network.send(.get(Self.me))
    network.assertRequests(count: 1)
  }

  @Test func assertRequestsReportsADiffWithHeadersAndBodyAtTheCallersLine() async throws {
    let network = StubNetwork()
    network.stub(.post(Self.me, body: Data("hi".utf8)))
    _ = try await network.send(.post(Self.me, headers: ["Accept": "text/plain"], body: Data("hi".utf8)))
    let line = #line + 1
    let issues = withCapturedIssues { network.assertRequests([.post(Self.me, body: Data("hi".utf8))]) }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          StubNetwork requests differ: got 1, expected 1; first difference at index 0:
            ~ [0] POST https://api.example.com/me body: "hi"   (expected)
              [0] POST https://api.example.com/me ["Accept": "text/plain"] body: "hi"   (actual)
          """,
          line: line
        )
      ]
    )
  }

  @Test func assertRequestsSaysWhenTheExpectedListIsTheLastPartOfWhatWasSent() async throws {
    let network = StubNetwork()
    network.stub(.get(Self.me))
    _ = try await network.send(.get(Self.me))
    network.stub(.delete(Self.me))
    _ = try await network.send(.delete(Self.me))
    let issues = withCapturedIssues { network.assertRequests([.delete(Self.me)]) }.issues
    #expect(
      issues.first?.message.hasSuffix(
        """
        The expected list is the last 1 of the 2 requests recorded: an assertion checks every request since the \
        network was made or cleared. Call clear() after an assertion to check one step at a time.
        """
      ) == true
    )
  }

  @Test func countAndNoneAssertionsListTheRequests() async throws {
    let network = StubNetwork()
    network.stub(.get(Self.me))
    _ = try await network.send(.get(Self.me))
    let line = #line + 2
    let issues = withCapturedIssues {
      network.assertRequests(count: 2)
      network.assertNoRequests()
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          "StubNetwork got 1 request, expected 2 requests:\n  [0] GET https://api.example.com/me",
          line: line
        ),
        CapturedIssue(
          "StubNetwork got 1 request, expected none:\n  [0] GET https://api.example.com/me",
          line: line + 1
        ),
      ]
    )
  }

  // MARK: Recording

  @Test func recordingLogsEachRequest() async throws {
    var environment = Environment.test()
    let network = StubNetwork()
    network.stub(.get(Self.me))
    environment.network = network
    let log = CallLog()
    _ = try await environment.recording(into: log).network.send(.get(Self.me))
    log.assertCalls([.init("network.send", "GET https://api.example.com/me")])
  }
}
