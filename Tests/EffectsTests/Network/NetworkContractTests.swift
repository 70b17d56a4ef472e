import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One suite, run against the live client — `URLSessionNetwork` talking to a real HTTP server on
/// 127.0.0.1 that the test starts — and against `StubNetwork` stubbed with the same routes: the
/// double is proven, not trusted.
@Suite("Network contract")
struct NetworkContractTests {
  @Test(arguments: NetworkUnderTest.allCases)
  func a200ComesBackWithItsBodyAndHeaders(_ system: NetworkUnderTest) async throws {
    let profile = NetworkResponse(
      status: 200,
      headers: ["Content-Type": "application/json", "X-Request-Id": "7"],
      body: Data(#"{"name":"Ada"}"#.utf8)
    )
    try await system.withNetwork([.init(method: "GET", path: "/profiles/42", response: profile)]) { subject in
      let response = try await subject.network.send(.get(subject.baseURL + "/profiles/42"))
      #expect(response.status == 200)
      #expect(response.isSuccess)
      #expect(response.text == #"{"name":"Ada"}"#)
      #expect(response.value(forHeader: "content-type") == "application/json")
      #expect(response.value(forHeader: "X-REQUEST-ID") == "7")
      #expect(subject.received().map(\.method) == ["GET"])
      #expect(subject.received().map(\.url.path) == ["/profiles/42"])
    }
  }

  @Test(arguments: NetworkUnderTest.allCases)
  func anErrorStatusIsAResponseNotAThrownError(_ system: NetworkUnderTest) async throws {
    let routes: [LocalHTTPServer.Route] = [
      .init(method: "GET", path: "/missing", response: .status(404, "no such profile")),
      .init(method: "GET", path: "/broken", response: .status(500, "database down")),
    ]
    try await system.withNetwork(routes) { subject in
      let missing = try await subject.network.send(.get(subject.baseURL + "/missing"))
      #expect(missing.status == 404)
      #expect(!missing.isSuccess)
      #expect(missing.text == "no such profile")
      let broken = try await subject.network.send(.get(subject.baseURL + "/broken"))
      #expect(broken.status == 500)
      #expect(broken.text == "database down")
    }
  }

  @Test(arguments: NetworkUnderTest.allCases)
  func aPostSendsItsMethodHeadersAndBodyToTheServer(_ system: NetworkUnderTest) async throws {
    let bytes = Data([0, 1, 2, 254, 255]) + Data(#"{"user":"ada"}"#.utf8)
    let echo = LocalHTTPServer.Route(
      method: "POST",
      path: "/echo",
      response: NetworkResponse(status: 201, body: bytes),
      echoesBody: true
    )
    try await system.withNetwork([echo]) { subject in
      let response = try await subject.network.send(
        .post(subject.baseURL + "/echo", headers: ["Content-Type": "application/octet-stream"], body: bytes)
      )
      #expect(response.status == 201)
      #expect(response.body == bytes)
      let received = try #require(subject.received().last)
      #expect(received.method == "POST")
      #expect(received.body == bytes)
      #expect(received.value(forHeader: "content-type") == "application/octet-stream")
    }
  }

  @Test(arguments: NetworkUnderTest.allCases)
  func aSlowResponseKeepsTheCallerWaitingUntilItArrives(_ system: NetworkUnderTest) async throws {
    let slow = LocalHTTPServer.Route(method: "GET", path: "/slow", response: .ok("at last"), isHeld: true)
    let answered = Locked(false)
    switch system {
    case .live:
      try await system.withNetwork([slow]) { subject in
        let request = Task {
          defer { answered.withLock { $0 = true } }
          return try await subject.network.send(.get(subject.baseURL + "/slow"))
        }
        let server = try #require(subject.server)
        // The server has the request and holds its response: the caller cannot have an answer.
        #expect(await server.nextHeldRequest() == "/slow")
        #expect(answered.withLock { $0 } == false)
        server.releaseHeldResponses()
        #expect(try await request.value.text == "at last")
      }
    case .stub:
      try await withVirtualTime { scheduler async throws in
        try await system.withNetwork([slow], latency: .seconds(5), scheduler: scheduler) { subject in
          let request = Task {
            defer { answered.withLock { $0 = true } }
            return try await subject.network.send(.get(subject.baseURL + "/slow"))
          }
          await scheduler.advance(by: .milliseconds(4999))
          #expect(answered.withLock { $0 } == false)
          await scheduler.advance(by: .milliseconds(1))
          #expect(answered.withLock { $0 } == true)
          let response = try await request.value
          #expect(response.text == "at last")
        }
      }
    }
  }

  @Test(arguments: NetworkUnderTest.allCases)
  func aRefusedConnectionThrowsCannotConnectToHost(_ system: NetworkUnderTest) async throws {
    let url = "http://127.0.0.1:\(try LocalHTTPServer.closedPort())/profiles/42"
    let network: any Network
    switch system {
    case .live:
      network = URLSessionNetwork(session: URLSession(configuration: .ephemeral))
    case .stub:
      let stubs = StubNetwork()
      stubs.stub(.get(url), throwing: URLError(.cannotConnectToHost))
      network = stubs
    }
    let error = try await #require(throws: URLError.self) { try await network.send(.get(url)) }
    #expect(error.code == .cannotConnectToHost)
  }

  /// Cancelled while it waits for the response, each throws `CancellationError` — not the
  /// session's `URLError(.cancelled)` — so `catch is CancellationError` works the same in the app
  /// and in its tests.
  @Test(arguments: NetworkUnderTest.allCases)
  func aRequestCancelledWhileItWaitsThrowsCancellationError(_ system: NetworkUnderTest) async throws {
    let slow = LocalHTTPServer.Route(method: "GET", path: "/slow", response: .ok("too late"), isHeld: true)
    switch system {
    case .live:
      try await system.withNetwork([slow]) { subject in
        let request = Task { try await subject.network.send(.get(subject.baseURL + "/slow")) }
        let server = try #require(subject.server)
        #expect(await server.nextHeldRequest() == "/slow")
        request.cancel()
        await #expect(throws: CancellationError.self) { try await request.value }
        #expect(subject.received().map(\.url.path) == ["/slow"])
      }
    case .stub:
      try await withVirtualTime { scheduler async throws in
        try await system.withNetwork([slow], latency: .seconds(5), scheduler: scheduler) { subject in
          let request = Task { try await subject.network.send(.get(subject.baseURL + "/slow")) }
          await scheduler.advance(by: .seconds(1))
          request.cancel()
          await #expect(throws: CancellationError.self) { try await request.value }
          #expect(subject.received().map(\.url.path) == ["/slow"])
        }
      }
    }
  }

  /// A task already cancelled sends nothing: it throws `CancellationError` and the server (or the
  /// stub) never sees the request.
  @Test(arguments: NetworkUnderTest.allCases)
  func aRequestFromACancelledTaskIsNotSentAndThrowsCancellationError(_ system: NetworkUnderTest) async throws {
    try await system.withNetwork([]) { subject in
      let request = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return try await subject.network.send(.get(subject.baseURL + "/profiles/42"))
      }
      await #expect(throws: CancellationError.self) { try await request.value }
      #expect(subject.received().isEmpty)
    }
  }
}
