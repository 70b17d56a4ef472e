#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// The live ``Network``: sends requests with a `URLSession` (`FoundationNetworking` on Linux).
///
/// The live ``Environment/network`` uses `URLSession.shared`; give it a session of your own for a
/// configuration of your own:
///
/// ```swift
/// var environment = Environment.live
/// environment.network = URLSessionNetwork(session: URLSession(configuration: .ephemeral))
/// Environment.bootstrap(environment)
/// ```
///
/// Every response is answered, whatever its status; a request that gets no response throws the
/// session's `URLError` (`.cannotConnectToHost` for a refused connection). A response that is not
/// HTTP (a `file:` URL) throws `URLError(.badServerResponse)`. A cancelled task throws
/// `CancellationError`, as every ``Network`` does. The same contract test suite runs
/// against it, on a server on 127.0.0.1, and against `StubNetwork`.
public struct URLSessionNetwork: Network {
  /// The session that sends the requests.
  package let session: URLSession

  /// A client sending with `session`, by default `URLSession.shared`.
  public init(session: URLSession = .shared) {
    self.session = session
  }

  /// Sends `request` with the session and answers the response, whatever its status.
  ///
  /// - Throws: The session's `URLError` when no response arrived; `CancellationError` when the
  ///   task is cancelled, before the request is sent or while it waits (where the session itself
  ///   throws `URLError(.cancelled)`).
  public func send(_ request: URLRequest) async throws -> NetworkResponse {
    try Task.checkCancellation()
    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await session.data(for: request)
    } catch let error as URLError where error.code == .cancelled && Task.isCancelled {
      throw CancellationError()
    }
    guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
    var headers: [String: String] = [:]
    for case (let name as String, let value) in http.allHeaderFields {
      headers[name] = value as? String ?? "\(value)"
    }
    return NetworkResponse(status: http.statusCode, headers: headers, body: data)
  }
}
