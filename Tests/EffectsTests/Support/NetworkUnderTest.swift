import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A network for a contract test: the live ``URLSessionNetwork`` talking to a ``LocalHTTPServer``
/// on 127.0.0.1, or a ``StubNetwork`` stubbed with the same routes. Both are reached through
/// `Network`, so a check cannot tell them apart.
enum NetworkUnderTest: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case live
  case stub

  var testDescription: String { rawValue }

  /// What a check is given: the network, the base URL its routes answer at, and what the server
  /// (or the stub) received, as requests.
  struct Subject {
    let network: any Network
    let baseURL: String
    let received: @Sendable () -> [NetworkRequest]
    /// The live server, to hold and release a slow response; nil for the stub.
    let server: LocalHTTPServer?
  }

  /// Runs `body` with a network answering `routes` (the request each matches, relative to the base
  /// URL, and its response); the server is stopped afterwards, whatever `body` does.
  func withNetwork<R>(
    _ routes: [LocalHTTPServer.Route],
    latency: Duration = .zero,
    scheduler: TestScheduler? = nil,
    _ body: (Subject) async throws -> R
  ) async throws -> R {
    switch self {
    case .live:
      let server = try LocalHTTPServer(routes: routes)
      defer { server.stop() }
      let base = server.baseURL
      let subject = Subject(
        network: URLSessionNetwork(session: URLSession(configuration: .ephemeral)),
        baseURL: base,
        received: {
          server.received.map { received in
            NetworkRequest(
              method: received.method,
              url: URL(string: base + received.path)!,
              headers: received.headers,
              body: received.body
            )
          }
        },
        server: server
      )
      return try await body(subject)
    case .stub:
      let base = "http://127.0.0.1:9"
      let network = StubNetwork(scheduler: scheduler)
      for route in routes {
        network.stub(
          NetworkRequest(method: route.method, url: URL(string: base + route.path)!, body: route.stubbedBody),
          route.response,
          after: route.isHeld ? latency : .zero
        )
      }
      return try await body(
        Subject(network: network, baseURL: base, received: { network.requests }, server: nil)
      )
    }
  }
}

extension LocalHTTPServer.Route {
  /// The body a stub for this route matches: an echo route answers the body it is sent, so its
  /// stub matches that body and answers it.
  var stubbedBody: Data {
    echoesBody ? response.body : Data()
  }
}
