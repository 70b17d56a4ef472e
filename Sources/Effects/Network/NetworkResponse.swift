public import Foundation

/// What a server answered: a status, header fields and a body — whatever the status.
///
/// ``Network/send(_:)-(URLRequest)`` answers one for every response, a 404 or a 500 included; it throws only
/// when no response arrived. A test stubs one with `StubNetwork`:
///
/// ```swift
/// network.stub(.get("https://api.example.com/me"), .json(#"{"name":"Ada"}"#))
/// network.stub(.get("https://api.example.com/missing"), .status(404))
/// ```
///
/// In app code, check the status, then decode:
///
/// ```swift
/// let response = try await environment.network.send(.get("https://api.example.com/me"))
/// guard response.isSuccess else { throw ProfileError.status(response.status) }
/// let profile = try response.decode(Profile.self)
/// ```
public struct NetworkResponse: Hashable, Sendable {
  /// The HTTP status code: 200, 404…
  public var status: Int
  /// The header fields, by name as the server (or the stub) spelled them.
  public var headers: [String: String]
  /// The body; empty when there is none.
  public var body: Data

  /// A response with `status`, `headers` and `body`.
  public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// Whether the status is a success, in `200..<300`.
  public var isSuccess: Bool {
    (200..<300).contains(status)
  }

  /// The body as UTF-8 text, or nil when it is not.
  public var text: String? {
    String(data: body, encoding: .utf8)
  }

  /// The value of the header `name`, whatever its case (`content-type` finds `Content-Type`).
  public func value(forHeader name: String) -> String? {
    headerValue(name, in: headers)
  }

  /// The body decoded from JSON as `type`.
  ///
  /// ```swift
  /// let profile = try response.decode(Profile.self)
  /// ```
  public func decode<T: Decodable>(_ type: T.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
    try decoder.decode(type, from: body)
  }
}

extension NetworkResponse {
  /// A 200 whose body is `text`, empty by default.
  ///
  /// ```swift
  /// network.stub(.post("https://api.example.com/logout"), .ok())
  /// network.stub(.get("https://example.com/robots.txt"), .ok("User-agent: *"))
  /// ```
  public static func ok(_ text: String = "", headers: [String: String] = [:]) -> Self {
    Self(status: 200, headers: headers, body: Data(text.utf8))
  }

  /// A response whose body is the JSON `text`, with `Content-Type: application/json`.
  ///
  /// ```swift
  /// network.stub(.get("https://api.example.com/me"), .json(#"{"name":"Ada"}"#))
  /// network.stub(.post("https://api.example.com/login"), .json(#"{"error":"wrong password"}"#, status: 401))
  /// ```
  public static func json(_ text: String, status: Int = 200) -> Self {
    Self(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
  }

  /// A response with `status` and, if given, the body `text`.
  ///
  /// ```swift
  /// network.stub(.get("https://api.example.com/profiles/7"), .status(404))
  /// ```
  public static func status(_ status: Int, _ text: String = "") -> Self {
    Self(status: status, body: Data(text.utf8))
  }
}

extension NetworkResponse: CustomStringConvertible {
  /// One line: `200 ["Content-Type": "application/json"] body: "{\"name\":\"Ada\"}"`.
  public var description: String {
    describeMessage("\(status)", headers: headers, body: body)
  }

  /// ``description`` without the body, its headers within ``ReportBudget`` (see
  /// ``NetworkRequest/boundedHead``).
  package var boundedHead: String {
    describeMessage("\(status)", headers: headers, body: Data(), bounded: true)
  }
}
