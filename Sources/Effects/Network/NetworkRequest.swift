public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A request as a value: its method, URL, headers and body — what a test stubs, what a test double
/// records, and what the ``Effect/send(_:)`` effect carries.
///
/// Unlike `URLRequest`, two requests are equal when they ask the same thing of the server (cache
/// policy and timeout are not part of it), and a request reads as a line of a failure message:
///
/// ```text
/// POST https://api.example.com/login ["Content-Type": "application/json"] body: "{\"user\":\"ada\"}"
/// ```
///
/// Make one with the static methods, or from a `URLRequest`:
///
/// ```swift
/// let logout = NetworkRequest.post("https://api.example.com/logout", headers: ["Authorization": "Bearer abc"])
/// let same = NetworkRequest(logout.urlRequest)  // == logout
/// ```
///
/// The method is upper-cased, the URL made absolute, and a body that is empty is no body, so the
/// same request built two ways is one value.
public struct NetworkRequest: Hashable, Sendable {
  /// The HTTP method, upper-cased: `GET`, `POST`…
  public var method: String
  /// The absolute URL.
  ///
  /// A request made from a string that is not a URL (`.get("http://[::1")`, reported where it was
  /// made) carries `swift-effects-not-a-url:` and the string percent-encoded: each such string
  /// makes its own URL, equal to no other request's, and no server answers it. The request reads
  /// as `GET "http://[::1" (not a URL)`.
  public var url: URL
  /// The header fields, by name as given. Names compare without case, as HTTP reads them:
  /// `["authorization": "…"]` and `["Authorization": "…"]` make equal requests.
  public var headers: [String: String]
  /// The body; empty when the request has none.
  public var body: Data

  /// A request for `url` with `method`, `headers` and `body`.
  ///
  /// ```swift
  /// NetworkRequest(method: "PATCH", url: profileURL, body: Data(#"{"name":"Ada"}"#.utf8))
  /// ```
  public init(method: String = "GET", url: URL, headers: [String: String] = [:], body: Data = Data()) {
    self.method = method.uppercased()
    self.url = url.absoluteURL
    self.headers = headers
    self.body = body
  }

  /// The request a `URLRequest` makes: its method (`GET` when it has none), URL, header fields
  /// and body — `httpBody`, or else what `httpBodyStream` holds, read to its end.
  ///
  /// A request with no URL (`URLRequest` allows it) gets `about:blank`, which no server answers.
  public init(_ request: URLRequest) {
    self.init(
      method: request.httpMethod ?? "GET",
      url: request.url ?? URL(string: "about:blank")!,
      headers: request.allHTTPHeaderFields ?? [:],
      body: request.httpBody ?? request.httpBodyStream.map(Self.contents(of:)) ?? Data()
    )
  }

  /// Two requests are equal when they ask the same thing of the server: the same method, URL and
  /// body, and the same header fields, their names compared without case.
  public static func == (lhs: NetworkRequest, rhs: NetworkRequest) -> Bool {
    lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body
      && lhs.caseFoldedHeaders == rhs.caseFoldedHeaders
  }

  /// Hashes what ``==(_:_:)`` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(method)
    hasher.combine(url)
    hasher.combine(body)
    hasher.combine(caseFoldedHeaders)
  }

  /// The header fields by lower-cased name (of two names differing only in case, the smaller
  /// value, so that the answer does not depend on the dictionary's order).
  private var caseFoldedHeaders: [String: String] {
    Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: min)
  }

  /// Everything `stream` holds, read from its start to its end.
  private static func contents(of stream: InputStream) -> Data {
    stream.open()
    defer { stream.close() }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = stream.read(&buffer, maxLength: buffer.count)
      guard count > 0 else { break }
      data.append(buffer, count: count)
    }
    return data
  }

  /// This request as a `URLRequest`, to send with `URLSession`.
  public var urlRequest: URLRequest {
    var request = URLRequest(url: url)
    request.httpMethod = method
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
      request.setValue(value, forHTTPHeaderField: name)
    }
    request.httpBody = body.isEmpty ? nil : body
    return request
  }

  /// The value of the header `name`, whatever its case (`content-type` finds `Content-Type`).
  public func value(forHeader name: String) -> String? {
    headerValue(name, in: headers)
  }
}

extension NetworkRequest {
  /// A `GET` of `url`.
  ///
  /// ```swift
  /// network.stub(.get("https://api.example.com/me"), .json(#"{"name":"Ada"}"#))
  /// ```
  ///
  /// These factories take the URL as a string, as tests and stubs spell it. For a `URL` you
  /// already have, use ``init(method:url:headers:body:)``: `NetworkRequest(url: me)`.
  ///
  /// A string that is not a URL as it stands is percent-encoded first (`"…/a b"` asks for
  /// `…/a%20b`). One that is not a URL even so (`""`, `"http://[::1"`) is reported at this call —
  /// a test issue in a test, a line on standard error in an app — and never stops the program:
  /// the request keeps the string (see ``url``), so it equals only a request made from the same
  /// string, and no server answers it.
  public static func get(
    _ url: String,
    headers: [String: String] = [:],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    return Self(method: "GET", url: URL(parsing: url, in: "get", at: site), headers: headers)
  }

  /// A `POST` of `body` to `url`.
  ///
  /// ```swift
  /// .post("https://api.example.com/login", headers: ["Content-Type": "application/json"], body: Data(json.utf8))
  /// ```
  ///
  /// A string that is not a URL is reported at this call, as for
  /// ``get(_:headers:fileID:filePath:line:column:)``.
  public static func post(
    _ url: String,
    headers: [String: String] = [:],
    body: Data = Data(),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    return Self(method: "POST", url: URL(parsing: url, in: "post", at: site), headers: headers, body: body)
  }

  /// A `PUT` of `body` to `url`. A string that is not a URL is reported at this call, as for
  /// ``get(_:headers:fileID:filePath:line:column:)``.
  public static func put(
    _ url: String,
    headers: [String: String] = [:],
    body: Data = Data(),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    return Self(method: "PUT", url: URL(parsing: url, in: "put", at: site), headers: headers, body: body)
  }

  /// A `DELETE` of `url`. A string that is not a URL is reported at this call, as for
  /// ``get(_:headers:fileID:filePath:line:column:)``.
  public static func delete(
    _ url: String,
    headers: [String: String] = [:],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    return Self(method: "DELETE", url: URL(parsing: url, in: "delete", at: site), headers: headers)
  }

  /// The string a factory was given when it is not a URL, which ``url`` carries; nil for every
  /// other request.
  var notAURL: String? {
    guard url.scheme == URL.notAURLScheme else { return nil }
    return String(url.absoluteString.dropFirst(URL.notAURLScheme.count + 1)).removingPercentEncoding
  }
}

extension NetworkRequest: CustomStringConvertible {
  /// One line: `POST https://api.example.com/login ["Content-Type": "application/json"] body: "…"`,
  /// with the headers sorted by name and a body that is not text given as its size.
  public var description: String {
    describeMessage("\(method) \(target)", headers: headers, body: body)
  }

  /// The URL as ``description`` shows it, or the string that is not a URL, quoted.
  package var target: String {
    notAURL.map { "\(String(reflecting: $0)) (not a URL)" } ?? url.absoluteString
  }

  /// ``description`` without the body, within ``ReportBudget``: the method, the URL and each
  /// header's name and value cut at ``ReportBudget/valueCharacters``, and at most
  /// ``ReportBudget/headers`` headers.
  package var boundedHead: String {
    describeMessage(
      "\(ReportBudget.clipped(method)) \(ReportBudget.clipped(target))",
      headers: headers,
      body: Data(),
      bounded: true
    )
  }
}

extension URL {
  /// The scheme of the URL a request made from a string that is not a URL carries.
  static let notAURLScheme = "swift-effects-not-a-url"

  /// `string` as a URL: as it stands when it is one, else percent-encoded. When it is not a URL
  /// even so, it is reported at `site` (naming `NetworkRequest.<factory>`) and the URL is
  /// `swift-effects-not-a-url:` followed by the whole string percent-encoded
  /// (`swift-effects-not-a-url:http://%5B::1`): a different URL for every string, equal to no URL
  /// that parses (unless it spells that scheme), and one no server answers.
  init(parsing string: String, in factory: String, at site: CallSite) {
    if let url = URL(string: string)
      ?? string.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed).flatMap({ URL(string: $0) })
    {
      self = url
      return
    }
    let message = """
      NetworkRequest.\(factory)(_:) was given \(String(reflecting: string)), which is not a URL. The request keeps \
      the string: it equals only a request made from the same string, and no server answers it. Pass an absolute \
      URL, such as "https://api.example.com/me".
      """
    if let reporter = TestSupportLink.reporter {
      reporter.report(message, kind: .invalidArgument, exactlyAt: site)
    } else {
      warn(message)
    }
    // Percent-encoded as a path, so that it still reads (`…:http://%5B::1`); if even that does not
    // parse, with unreserved characters only, which always does. A `%` is encoded either way, so
    // two strings never make one URL.
    let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    let encoded = [CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "%")), unreserved].lazy
      .compactMap { string.addingPercentEncoding(withAllowedCharacters: $0) }
      .compactMap { URL(string: "\(Self.notAURLScheme):\($0)") }
    self = encoded.first ?? URL(string: "\(Self.notAURLScheme):")!
  }
}
