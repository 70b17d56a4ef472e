#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// Loads a request over the network: the ``Environment/network`` co-effect.
///
/// App code sends requests through the environment instead of `URLSession.shared`, so a test
/// answers them from stubs, on virtual time, and sees every request the code made:
///
/// ```swift
/// struct ProfileService {
///   var environment: Environment = .current
///
///   func profile(id: Int) async throws -> Profile {
///     let response = try await environment.network.send(.get("https://api.example.com/profiles/\(id)"))
///     guard response.isSuccess else { throw ProfileError.status(response.status) }
///     return try response.decode(Profile.self)
///   }
/// }
/// ```
///
/// The test, with `EffectsTestSupport`'s `StubNetwork`:
///
/// ```swift
/// @Test(.virtualTime) func loadsTheProfile() async throws {
///   let network = StubNetwork()
///   network.stub(.get("https://api.example.com/profiles/42"), .json(#"{"name":"Ada"}"#))
///   var environment = Environment.current
///   environment.network = network
///
///   let profile = try await ProfileService(environment: environment).profile(id: 42)
///
///   #expect(profile.name == "Ada")
///   network.assertRequests([.get("https://api.example.com/profiles/42")])
/// }
/// ```
///
/// A conforming type must:
/// - answer the server's response *whatever its status*: a 404 or a 500 is a ``NetworkResponse``,
///   not a thrown error (decide what a status means in app code, or let the interpreter's
///   ``Effect/send(_:)`` do it);
/// - throw only when no response arrived — the host refused the connection, it timed out, there
///   is no network — with the system's error (`URLError`), so a test double and the live client
///   fail the same way;
/// - be safe to call from any task, and stop when its task is cancelled, throwing
///   `CancellationError` (never `URLError(.cancelled)`), so that `catch is CancellationError`
///   means the same with every conformer; a task cancelled before it sends sends nothing.
///
/// The live value is ``URLSessionNetwork``. What both share — sending a ``NetworkRequest`` — lives in
/// an extension, so the double and the live client cannot diverge on it.
public protocol Network: Sendable {
  /// Sends `request` and answers the server's response, whatever its status.
  ///
  /// - Throws: When no response arrived: `URLError(.cannotConnectToHost)`,
  ///   `URLError(.timedOut)`, `URLError(.notConnectedToInternet)`, `CancellationError`…
  func send(_ request: URLRequest) async throws -> NetworkResponse
}

extension Network {
  /// Sends `request`, described as a value, and answers the server's response, whatever its status.
  ///
  /// ```swift
  /// let response = try await environment.network.send(.post("https://api.example.com/logout"))
  /// ```
  public func send(_ request: NetworkRequest) async throws -> NetworkResponse {
    try await send(request.urlRequest)
  }
}
