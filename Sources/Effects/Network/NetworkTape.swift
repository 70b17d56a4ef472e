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
  /// values of query items the tape redacted, and for a user and password it redacted.
  private static func url(_ url: URL, matches sent: URL) -> Bool {
    if url == sent { return true }
    guard var recorded = URLComponents(url: url, resolvingAgainstBaseURL: false),
      var other = URLComponents(url: sent, resolvingAgainstBaseURL: false)
    else { return false }
    if recorded.user == NetworkTape.redacted {
      guard other.user != nil else { return false }
      recorded.user = nil
      recorded.password = nil
      other.user = nil
      other.password = nil
    }
    if recorded.queryItems != nil || other.queryItems != nil {
      guard let recordedItems = recorded.queryItems, let otherItems = other.queryItems,
        recordedItems.count == otherItems.count,
        zip(recordedItems, otherItems).allSatisfy({ recorded, sent in
          recorded.name == sent.name
            && (recorded.value == NetworkTape.redacted || recorded.value == sent.value
              || Self.json(recorded.value, matches: sent.value))
        })
      else { return false }
      recorded.queryItems = nil
      other.queryItems = nil
    }
    return recorded == other
  }

  /// Whether a recorded value holding JSON that was redacted inside matches the `sent` one.
  private static func json(_ recorded: String?, matches sent: String?) -> Bool {
    guard let recorded, recorded.contains(NetworkTape.redacted), let sent, let inner = JSONValue(holdsJSON: recorded),
      let other = JSONValue(holdsJSON: sent)
    else { return false }
    return inner.matches(other)
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
