public import Effects
public import Foundation

/// The login endpoint, over the environment's network: the request it sends for some credentials,
/// and the body the server answers.
///
/// It holds no connection of its own: ``logIn(_:over:)`` sends through the `Network` it is
/// given, `environment.network` — `URLSession` in the app, a `StubNetwork` in tests, which answer
/// the same ``request(for:)`` value.
///
/// ```swift
/// let body = try await LoginService().logIn(credentials, over: environment.network)
/// ```
public struct LoginService: Hashable, Sendable {
  /// Where the endpoint is.
  public var url: URL

  /// A service posting to `url`.
  public init(url: URL = URL(string: "https://api.example.com/login")!) {
    self.url = url
  }

  /// The request a login sends: a `POST` of `{"email": …, "password": …}` as JSON, its keys sorted
  /// so the body is the same bytes on every run and every platform.
  public func request(for credentials: Credentials) -> NetworkRequest {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    // Encoding two strings cannot fail.
    let body = (try? encoder.encode(["email": credentials.email, "password": credentials.password])) ?? Data()
    return NetworkRequest(method: "POST", url: url, headers: ["Content-Type": "application/json"], body: body)
  }

  /// Sends ``request(for:)`` over `network` and returns the body as text, whatever the status: the
  /// server answers validation errors with a body too, and ``decision(for:)`` reads every body.
  ///
  /// - Throws: why no answer came (offline, the host refused: the `URLError` the network threw);
  ///   `CancellationError` when the task is cancelled.
  public func logIn(_ credentials: Credentials, over network: any Network) async throws -> String {
    let response = try await network.send(request(for: credentials))
    return String(decoding: response.body, as: UTF8.self)
  }
}
