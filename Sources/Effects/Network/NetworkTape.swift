import Foundation

/// Network traffic kept as data: requests a program sent, what the server answered to each, and
/// how long each answer took — what a test plays back instead of the server, and what a preview
/// shows.
///
/// A test records a tape once from the real server and plays it back from then on, with
/// `EffectsTestSupport`'s `StubNetwork(tape:)`: every recorded request is answered with its
/// recorded response, after its recorded latency on virtual time, and anything the test did not
/// foresee is reported. A preview plays one with ``Environment/preview(network:now:)``. A tape
/// can also be written by hand, for a preview of data no server has:
///
/// ```swift
/// let tape = NetworkTape([
///   .init(request: .get("https://api.example.com/me"), response: .json(#"{"name":"Ada"}"#)),
/// ])
/// ```
///
/// On disk a tape is one JSON file (``write(to:)``, ``init(contentsOf:)``), made to be read and
/// diffed in review: keys sorted, and bodies that are JSON objects or arrays written as JSON,
/// pretty-printed, not as a string:
///
/// ```json
/// {
///   "exchanges" : [
///     {
///       "latencyMilliseconds" : 42.5,
///       "request" : {
///         "headers" : { "Authorization" : "<redacted>" },
///         "method" : "GET",
///         "url" : "https://api.example.com/me"
///       },
///       "response" : {
///         "headers" : { "Content-Type" : "application/json" },
///         "json" : { "name" : "Ada" },
///         "status" : 200
///       }
///     }
///   ],
///   "format" : 1
/// }
/// ```
///
/// Other bodies are `"text"` (UTF-8) or `"base64"`. What a recording must not keep is replaced by
/// `"<redacted>"` (``Redaction``); such a value in a recorded request matches any value.
public struct NetworkTape: Hashable, Sendable {
  /// One request and the response it got.
  public struct Exchange: Hashable, Sendable {
    /// The request, as the program sent it (less what was redacted).
    public var request: NetworkRequest
    /// What the server answered, whatever its status.
    public var response: NetworkResponse
    /// How long the answer took: played back on virtual time in a test, skipped in a preview.
    public var latency: Duration

    /// An exchange of `request` for `response`, answered after `latency`.
    public init(request: NetworkRequest, response: NetworkResponse, latency: Duration = .zero) {
      self.request = request
      self.response = response
      self.latency = latency
    }
  }

  /// The exchanges, in the order the requests were sent.
  public var exchanges: [Exchange]

  /// A tape of `exchanges`.
  public init(_ exchanges: [Exchange] = []) {
    self.exchanges = exchanges
  }

  /// The version of the file format this library writes, and the newest it reads.
  public static let format = 1

  /// What stands in a tape for a value that was redacted: in a recorded request, it matches any
  /// value.
  public static let redacted = "<redacted>"
}

extension NetworkTape.Exchange {
  /// Whether this exchange's request answers `request`: the same method and URL, every header it
  /// names with the same value (any value where it was redacted), and the same body — for a JSON
  /// object or array, the same JSON, whatever its spacing and key order, a redacted value matching
  /// any value.
  ///
  /// The rules of `StubNetwork`'s stubs, which a tape played in a test becomes.
  package func answers(_ other: NetworkRequest) -> Bool {
    request.method == other.method && Self.url(request.url, matches: other.url)
      && request.headers.allSatisfy { name, value in
        guard let sent = other.value(forHeader: name) else { return false }
        return value == NetworkTape.redacted || value == sent
      }
      && Self.body(request.body, matches: other.body)
  }

  /// Whether the recorded `url` matches the `sent` one: the same URL, or the same but for the
  /// values of query items the tape redacted.
  private static func url(_ url: URL, matches sent: URL) -> Bool {
    if url == sent { return true }
    guard var recorded = URLComponents(url: url, resolvingAgainstBaseURL: false),
      var other = URLComponents(url: sent, resolvingAgainstBaseURL: false),
      let recordedItems = recorded.queryItems, let otherItems = other.queryItems,
      recordedItems.count == otherItems.count
    else { return false }
    let itemsMatch = zip(recordedItems, otherItems).allSatisfy { recorded, sent in
      recorded.name == sent.name && (recorded.value == NetworkTape.redacted || recorded.value == sent.value)
    }
    recorded.queryItems = nil
    other.queryItems = nil
    return itemsMatch && recorded == other
  }

  /// Whether the recorded `body` matches the `sent` one: the same bytes; a body redacted whole
  /// matching any; the same JSON, or the same form, a redacted value matching any value.
  private static func body(_ body: Data, matches sent: Data) -> Bool {
    if body == sent || body == Data(NetworkTape.redacted.utf8) { return true }
    if let recorded = JSONValue(structured: body), let sent = JSONValue(structured: sent) {
      return recorded.matches(sent)
    }
    if let recorded = FormBody(body), let sent = FormBody(sent) { return recorded.matches(sent) }
    return false
  }
}

extension NetworkTape {
  /// What a recording leaves out of the tape: the values of some header fields, of some query
  /// items of the URL, and of some fields of JSON bodies, wherever they are nested. Each is written
  /// as ``NetworkTape/redacted``.
  ///
  /// ```swift
  /// .standard.adding(headers: ["X-Api-Key"], bodyFields: ["token", "refresh_token"], queryItems: ["api_key"])
  /// ```
  ///
  /// Header names are compared whatever their case; body fields and query items by their exact
  /// name.
  public struct Redaction: Hashable, Sendable {
    /// The header fields whose values are redacted, in lowercase.
    public private(set) var headers: Set<String>
    /// The JSON fields whose values are redacted, at any depth.
    public private(set) var bodyFields: Set<String>
    /// The query items of a request's URL whose values are redacted.
    public private(set) var queryItems: Set<String>

    /// Redacts the values of `headers`, of the JSON fields `bodyFields` and of the URL's query
    /// items `queryItems`, and nothing else (not even ``standard``'s).
    public init(headers: Set<String> = [], bodyFields: Set<String> = [], queryItems: Set<String> = []) {
      self.headers = Set(headers.map { $0.lowercased() })
      self.bodyFields = bodyFields
      self.queryItems = queryItems
    }

    /// What a recording redacts unless told otherwise: the credentials a request or a response
    /// carries in its header fields, `Authorization`, `Cookie` and `Set-Cookie`.
    public static let standard = Redaction(headers: ["Authorization", "Cookie", "Set-Cookie"])

    /// Redacts nothing.
    public static let none = Redaction()

    /// This redaction, and `headers`, `bodyFields` and `queryItems` as well.
    public func adding(
      headers: Set<String> = [],
      bodyFields: Set<String> = [],
      queryItems: Set<String> = []
    ) -> Redaction {
      var redaction = self
      redaction.headers.formUnion(headers.map { $0.lowercased() })
      redaction.bodyFields.formUnion(bodyFields)
      redaction.queryItems.formUnion(queryItems)
      return redaction
    }

    /// `exchange` as a tape keeps it: redacted; its JSON bodies in a stable form (keys sorted, no
    /// spacing), so that a tape compares equal to itself written and read back; its latency in
    /// whole microseconds, as the file holds it; and without the response's header fields that
    /// describe one transfer rather than the content (`Content-Length`, `Connection`, `Date`,
    /// `Keep-Alive`, `Transfer-Encoding`): they no longer hold for a body in its stable form, and
    /// would change the file every time it is recorded again.
    package func apply(to exchange: Exchange) -> Exchange {
      var exchange = exchange
      exchange.request.url = redact(exchange.request.url)
      exchange.request.headers = redact(exchange.request.headers)
      exchange.request.body = redact(exchange.request.body)
      exchange.response.headers = redact(exchange.response.headers).filter {
        !Self.transferFields.contains($0.key.lowercased())
      }
      exchange.response.body = redact(exchange.response.body)
      exchange.latency = .microseconds(Int64((exchange.latency / .microseconds(1)).rounded()))
      return exchange
    }

    private static let transferFields: Set<String> = [
      "content-length", "connection", "date", "keep-alive", "transfer-encoding",
    ]

    private func redact(_ fields: [String: String]) -> [String: String] {
      fields.reduce(into: [:]) { redacted, field in
        redacted[field.key] = headers.contains(field.key.lowercased()) ? NetworkTape.redacted : field.value
      }
    }

    private func redact(_ url: URL) -> URL {
      guard !queryItems.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
        let items = components.queryItems, items.contains(where: { queryItems.contains($0.name) })
      else { return url }
      components.queryItems = items.map { item in
        queryItems.contains(item.name) ? URLQueryItem(name: item.name, value: NetworkTape.redacted) : item
      }
      return components.url ?? url
    }

    /// `body` as a tape keeps it: a JSON object or array in its stable form, with `bodyFields`
    /// redacted (kept byte for byte instead when a number of it would not survive, unless a field
    /// must be redacted); a form with `bodyFields` redacted; and any other body that names one of
    /// `bodyFields` left out whole — what this redaction cannot read, it does not keep.
    private func redact(_ body: Data) -> Data {
      if let json = JSONValue(structured: body) {
        let redacted = json.redacting(bodyFields)
        return redacted != json || JSONValue.keepsEveryNumber(of: body) ? redacted.data : body
      }
      guard !bodyFields.isEmpty else { return body }
      if let form = FormBody(body) {
        return form.names(any: bodyFields) ? form.redacting(bodyFields) : body
      }
      if let text = String(data: body, encoding: .utf8), bodyFields.contains(where: { text.contains($0) }) {
        return Data(NetworkTape.redacted.utf8)
      }
      return body
    }
  }
}
