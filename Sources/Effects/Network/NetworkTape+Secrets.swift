import Foundation

extension NetworkTape {
  /// A value on a tape that looks like a credential, found by the check a recording makes before
  /// it writes the tape: where it is, what it looks like, and how to redact it or keep it.
  package struct Secret: Hashable, Sendable {
    /// The exchange, counted from 0.
    package var exchange: Int
    /// Where in the exchange: `request.headers.X-Token`, `response.json.session.jwt`,
    /// `request.url`, `response.text`.
    package var path: String
    /// What it looks like: `a JWT`, `a GitHub token (ghp_…)`, `a long random value`.
    package var kind: String
    /// How many characters the value has (a report never shows it).
    package var length: Int
    /// How to redact it, or to keep it when it is no secret: Swift to paste.
    package var remedy: String
  }

  /// The values of the tape that look like credentials, less what `redaction` keeps: what no tape
  /// on disk should hold.
  ///
  /// It looks, in every header value, URL, query item, JSON string (at any depth, and in a JSON
  /// string holding JSON), form value and text or binary body, for:
  /// - a credential of an `Authorization` scheme (`Bearer …`, and `Basic …` at the start of a value);
  /// - a JSON Web Token (`eyJ….eyJ….…`);
  /// - the keys and tokens whose prefix names them: AWS (`AKIA`, `ASIA`), GitHub (`ghp_`, `gho_`,
  ///   `ghu_`, `ghs_`, `ghr_`, `github_pat_`), GitLab (`glpat-`), Slack (`xoxb-`, `xoxp-`, …),
  ///   Stripe (`sk_live_`, `sk_test_`, `rk_live_`, `rk_test_`), Google (`AIza`), npm (`npm_`),
  ///   Shopify (`shpat_`, `shpss_`), Square (`sq0atp-`, `sq0csp-`), and PEM private keys;
  /// - a long random-looking value (20 characters or more, letters and digits, no spaces) in a
  ///   field whose name suggests a secret (`token`, `key`, `secret`, `password`, `auth`,
  ///   `session`, `signature`, `credential`).
  ///
  /// A value is not reported when it is ``redacted``, when its name is one `redaction` keeps, or
  /// when it starts with a prefix `redaction` keeps (``Redaction/keeping(headers:bodyFields:queryItems:valuesStartingWith:)``).
  package func secrets(keeping redaction: Redaction) -> [Secret] {
    var found: [Secret] = []
    for (index, exchange) in exchanges.enumerated() {
      var scan = SecretScan(exchange: index, redaction: redaction)
      scan.url(exchange.request.url)
      scan.headers(exchange.request.headers, at: "request")
      scan.body(exchange.request.body, at: "request")
      scan.headers(exchange.response.headers, at: "response")
      scan.body(exchange.response.body, at: "response")
      found += scan.found
    }
    return found
  }
}

extension NetworkTape {
  /// `text` with each value that looks like a credential cut to its mark (`ghp_…`), for a report
  /// that quotes a request: a report lands in logs that are kept and shared, as a tape does.
  package static func masked(_ text: String) -> String {
    var text = text
    for _ in 0..<20 {
      guard let found = SecretScan.marked(text, whole: false), !found.value.isEmpty else { break }
      text = text.replacingOccurrences(of: found.value, with: "\(found.marker)…")
    }
    return text
  }

  /// `text` as a report quotes it: masked (``masked(_:)``), and at most 200 characters.
  package static func quoted(_ text: String) -> String {
    bounded(masked(text))
  }
}

/// One exchange's scan for secrets.
private struct SecretScan {
  let exchange: Int
  let redaction: NetworkTape.Redaction
  var found: [NetworkTape.Secret] = []

  init(exchange: Int, redaction: NetworkTape.Redaction) {
    self.exchange = exchange
    self.redaction = redaction
  }

  /// Where a value was found, for the remedy: a named header, body field or query item, or none.
  enum Place {
    case header(String)
    case bodyField(String)
    case queryItem(String)
    case userInfo
    case text
    case urlPath
  }

  mutating func url(_ url: URL) {
    let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    if let password = components?.password, password != NetworkTape.redacted, !password.isEmpty {
      report("request.url", kind: "the password of the URL's user info", length: password.count, place: .userInfo)
    }
    var rest = components
    rest?.queryItems = nil
    rest?.password = nil
    value(rest?.string ?? url.absoluteString, at: "request.url", place: .urlPath, named: nil)
    for item in components?.queryItems ?? [] {
      guard let itemValue = item.value, !redaction.keptQueryItems.contains(item.name) else { continue }
      value(itemValue, at: "request.url.query.\(item.name)", place: .queryItem(item.name), named: item.name)
    }
  }

  mutating func headers(_ headers: [String: String], at message: String) {
    for (name, headerValue) in headers.sorted(by: { $0.key < $1.key })
    where !redaction.keptHeaders.contains(name.lowercased()) {
      value(headerValue, at: "\(message).headers.\(name)", place: .header(name), named: name, start: true)
    }
  }

  mutating func body(_ body: Data, at message: String) {
    guard !body.isEmpty else { return }
    if let json = JSONValue(structured: body) {
      self.json(json, at: "\(message).json")
    } else if let form = FormBody(body) {
      for pair in form.pairs {
        let name = (pair.name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? pair.name)
        guard !redaction.keptBodyFields.contains(name),
          !redaction.keptBodyFields.contains(FormBody.lastPart(of: name))
        else { continue }
        let decoded = pair.value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? pair.value
        value(decoded, at: "\(message).form.\(name)", place: .bodyField(name), named: name, start: true)
      }
    } else {
      // Text or bytes: a marked credential is found in either, byte by byte.
      let isText = String(data: body, encoding: .utf8) != nil
      if let marked = Self.marked([UInt8](body), whole: false), !kept(marked.value) {
        report(
          "\(message).\(isText ? "text" : "base64")",
          kind: marked.kind,
          length: marked.value.count,
          place: .text,
          marker: marked.marker
        )
      }
    }
  }

  /// How deep the check reads JSON, counting the levels of JSON held in strings: what is deeper
  /// is reported as unread, never passed over (a body 14 strings of 400 levels deep overflowed the
  /// stack).
  static let deepestLevel = 256

  private mutating func json(_ json: JSONValue, at path: String, named name: String? = nil, depth: Int = 0) {
    guard depth < Self.deepestLevel else {
      report(
        path,
        kind: "JSON nested deeper than the check reads (\(Self.deepestLevel) levels)",
        length: 0,
        place: .text
      )
      return
    }
    switch json {
    case .object(let members):
      for (key, member) in members.sorted(by: { $0.key < $1.key })
      where !redaction.keptBodyFields.contains(key) && !redaction.keptBodyFields.contains(FormBody.lastPart(of: key)) {
        // A key is looked at as a value (a token used as a key); a path never shows one that looks
        // like a credential.
        let marked = Self.marked(key, whole: false)
        let step = marked.map { "<\($0.marker)…>" } ?? key
        if let marked, !kept(marked.value) {
          report("\(path).\(step)", kind: marked.kind, length: marked.value.count, place: .text, marker: marked.marker)
        }
        self.json(member, at: "\(path).\(step)", named: marked == nil ? key : nil, depth: depth + 1)
      }
    case .array(let values):
      for (index, element) in values.enumerated() {
        self.json(element, at: "\(path)[\(index)]", named: name, depth: depth + 1)
      }
    case .string(let text):
      if let inner = JSONValue(holdsJSON: text) {
        self.json(inner, at: "\(path)(JSON)", named: name, depth: depth + 1)
      } else {
        value(text, at: path, place: name.map { .bodyField($0) } ?? .text, named: name, start: true)
      }
    default:
      break
    }
  }

  /// Looks at one value: `start` when it is a whole value (a header's, a field's), where an
  /// `Authorization` scheme may begin it.
  private mutating func value(_ text: String, at path: String, place: Place, named name: String?, start: Bool = false) {
    guard text != NetworkTape.redacted, !text.isEmpty else { return }
    if let marked = Self.marked(text, whole: start), !kept(marked.value) {
      report(path, kind: marked.kind, length: marked.value.count, place: place, marker: marked.marker)
      return
    }
    if let name, Self.suggestsSecret(name), Self.looksRandom(text), !kept(text) {
      report(path, kind: "a long random value in a field named \(name)", length: text.count, place: place)
    }
  }

  private func kept(_ value: String) -> Bool {
    redaction.keptValuePrefixes.contains { value.hasPrefix($0) }
  }

  private mutating func report(_ path: String, kind: String, length: Int, place: Place, marker: String? = nil) {
    guard found.count < 100 else { return }
    let keep = "or, if it is no secret (a fake of the test's), keep it:"
    let byPrefix =
      marker.map { ", or every value that starts like it: .standard.keeping(valuesStartingWith: [\"\($0)\"])" } ?? ""
    let remedy =
      switch place {
      case .header(let name):
        "Redact it: .standard.adding(headers: [\"\(name)\"]); \(keep) .standard.keeping(headers: [\"\(name)\"])\(byPrefix)."
      case .bodyField(let name):
        "Redact it: .standard.adding(bodyFields: [\"\(name)\"]); \(keep) .standard.keeping(bodyFields: [\"\(name)\"])\(byPrefix)."
      case .queryItem(let name):
        "Redact it: .standard.adding(queryItems: [\"\(name)\"]); \(keep) .standard.keeping(queryItems: [\"\(name)\"])\(byPrefix)."
      case .userInfo:
        "Record with a redaction that leaves out a URL's user info, as .standard does."
      case .text:
        """
        The body is neither JSON nor a form, so no field of it can be redacted: leave it out whole with \
        .standard.adding(bodyFields: ["\(marker ?? "…")"]); \(keep) .standard.keeping(valuesStartingWith: ["\(marker ?? "…")"]).
        """
      case .urlPath:
        """
        A URL's path is kept as it is: send a fake one from the test; \(keep) \
        .standard.keeping(valuesStartingWith: ["\(marker ?? "…")"]).
        """
      }
    found.append(.init(exchange: exchange, path: path, kind: kind, length: length, remedy: remedy))
  }

  // MARK: What a secret looks like

  /// A credential `text` holds by its mark: its kind, the marker, and the value from the marker on.
  /// One pass over the bytes, whatever the body's size.
  static func marked(_ text: String, whole: Bool) -> (kind: String, marker: String, value: String)? {
    marked(Array(text.utf8), whole: whole)
  }

  static func marked(_ bytes: [UInt8], whole: Bool) -> (kind: String, marker: String, value: String)? {
    if whole, let basic = marker(basic, in: bytes, at: 0).found { return basic }
    // Where each marker's last try ended: a try that failed inside a token fails for every later
    // start in the same token (fewer characters, fewer dots), so none is tried again: one pass.
    var triedUntil = [Int](repeating: 0, count: markers.count)
    var index = 0
    while index < bytes.count {
      defer { index += 1 }
      guard firstBytes[Int(bytes[index])] else { continue }
      if index > 0, isWordByte(bytes[index - 1]) { continue }
      for (number, marker) in markers.enumerated()
      where index >= triedUntil[number] && (marker.first == bytes[index] || marker.first == bytes[index] | 0x20) {
        let (found, end) = self.marker(marker, in: bytes, at: index)
        if let found { return found }
        triedUntil[number] = end
      }
    }
    return nil
  }

  /// A mark of a credential: what starts it, and how many characters of a token follow it at least
  /// (so that prose that mentions one is not taken for one).
  private struct Marker {
    var bytes: [UInt8]
    var caseInsensitive = false
    var kind: String
    var minimum: Int
    /// Whether the token must have three dot-separated parts (a JWT).
    var dotted = false
    /// What must follow within 40 bytes (a PEM private key).
    var then: [UInt8]? = nil
    /// Whether the token may hold `.~+/=` too (a scheme's credential, a JWT).
    var extended = false

    init(_ text: String, _ kind: String, _ minimum: Int, caseInsensitive: Bool = false) {
      bytes = Array((caseInsensitive ? text.lowercased() : text).utf8)
      self.caseInsensitive = caseInsensitive
      self.kind = kind
      self.minimum = minimum
    }

    var first: UInt8 { bytes[0] }
    var marker: String { String(decoding: bytes, as: UTF8.self) }
  }

  private static let basic: Marker = {
    var basic = Marker("basic ", "a Basic credential", 8, caseInsensitive: true)
    basic.extended = true
    return basic
  }()

  private static let markers: [Marker] = {
    var jwt = Marker("eyJ", "a JSON Web Token (eyJ…)", 20)
    jwt.dotted = true
    jwt.extended = true
    var bearer = Marker("bearer ", "a Bearer credential", 16, caseInsensitive: true)
    bearer.extended = true
    var pem = Marker("-----BEGIN ", "a PEM private key (-----BEGIN … PRIVATE KEY-----)", 0)
    pem.then = Array("PRIVATE KEY-----".utf8)
    return [
      bearer, jwt, pem,
      Marker("AKIA", "an AWS access key id (AKIA…)", 16), Marker("ASIA", "an AWS temporary access key id (ASIA…)", 16),
      Marker("github_pat_", "a GitHub token (github_pat_…)", 20),
      Marker("ghp_", "a GitHub token (ghp_…)", 20), Marker("gho_", "a GitHub token (gho_…)", 20),
      Marker("ghu_", "a GitHub token (ghu_…)", 20), Marker("ghs_", "a GitHub token (ghs_…)", 20),
      Marker("ghr_", "a GitHub token (ghr_…)", 20), Marker("glpat-", "a GitLab token (glpat-…)", 20),
      Marker("xoxb-", "a Slack token (xoxb-…)", 10), Marker("xoxp-", "a Slack token (xoxp-…)", 10),
      Marker("xoxa-", "a Slack token (xoxa-…)", 10), Marker("xoxr-", "a Slack token (xoxr-…)", 10),
      Marker("xoxs-", "a Slack token (xoxs-…)", 10), Marker("sk_live_", "a Stripe secret key (sk_live_…)", 16),
      Marker("sk_test_", "a Stripe secret key (sk_test_…)", 16),
      Marker("rk_live_", "a Stripe restricted key (rk_live_…)", 16),
      Marker("rk_test_", "a Stripe restricted key (rk_test_…)", 16),
      Marker("AIza", "a Google API key (AIza…)", 35), Marker("npm_", "an npm token (npm_…)", 30),
      Marker("shpat_", "a Shopify token (shpat_…)", 20), Marker("shpss_", "a Shopify secret (shpss_…)", 20),
      Marker("sq0atp-", "a Square token (sq0atp-…)", 20), Marker("sq0csp-", "a Square secret (sq0csp-…)", 20),
    ]
  }()

  /// The bytes that begin a marker, in either case where it is case-insensitive.
  private static let firstBytes: [Bool] = {
    var first = [Bool](repeating: false, count: 256)
    for marker in markers {
      first[Int(marker.first)] = true
      if marker.caseInsensitive { first[Int(marker.first & ~0x20)] = true }
    }
    return first
  }()

  /// The credential `marker` begins at `index` of `bytes`, if it does; and where the try ended.
  private static func marker(
    _ marker: Marker,
    in bytes: [UInt8],
    at index: Int
  ) -> (found: (kind: String, marker: String, value: String)?, end: Int) {
    let end = index + marker.bytes.count
    guard end <= bytes.count else { return (nil, index + 1) }
    for offset in 0..<marker.bytes.count {
      let byte = bytes[index + offset]
      let folded = marker.caseInsensitive && (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
      guard folded == marker.bytes[offset] else { return (nil, index + 1) }
    }
    if let then = marker.then {
      let window = bytes[end..<min(bytes.count, end + 40 + then.count)]
      guard let last = window.indices.first(where: { window[$0...].starts(with: then) }) else {
        return (nil, index + 1)
      }
      let value = String(decoding: bytes[index..<last + then.count], as: UTF8.self)
      return ((marker.kind, "-----BEGIN", value), last + then.count)
    }
    // A key named by its prefix is letters, digits, `_` and `-`; a scheme's credential or a JWT
    // also `.`, `~`, `+`, `/` and `=` (base64 and JWT segments).
    var tokenEnd = end
    while tokenEnd < bytes.count, marker.extended ? isTokenByte(bytes[tokenEnd]) : isKeyByte(bytes[tokenEnd]) {
      tokenEnd += 1
    }
    guard tokenEnd - end >= marker.minimum else { return (nil, tokenEnd) }
    if marker.dotted, bytes[index..<tokenEnd].filter({ $0 == UInt8(ascii: ".") }).count < 2 { return (nil, tokenEnd) }
    let value = String(decoding: bytes[index..<tokenEnd], as: UTF8.self)
    let shown = marker.caseInsensitive ? String(value.prefix(marker.bytes.count)) : marker.marker
    return ((marker.kind, shown, value), tokenEnd)
  }

  private static func isKeyByte(_ byte: UInt8) -> Bool {
    isWordByte(byte) || byte == UInt8(ascii: "-")
  }

  private static func isWordByte(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
      || byte == UInt8(ascii: "_")
  }

  private static func isTokenByte(_ byte: UInt8) -> Bool {
    isWordByte(byte) || "-.~+/=".utf8.contains(byte)
  }

  /// Whether a field named `name` says it holds a secret.
  static func suggestsSecret(_ name: String) -> Bool {
    let name = name.lowercased()
    return ["token", "key", "secret", "password", "passwd", "auth", "session", "signature", "credential", "jwt"]
      .contains { name.contains($0) }
  }

  /// Whether `text` looks random: 20 characters or more, no spaces, letters and digits mixed, and
  /// at least 3.5 bits of entropy a character.
  static func looksRandom(_ text: String) -> Bool {
    guard text.count >= 20, text.count <= 8_192, !text.contains(where: \.isWhitespace),
      text.contains(where: \.isLetter), text.contains(where: \.isNumber)
    else { return false }
    var counts: [Character: Int] = [:]
    for character in text { counts[character, default: 0] += 1 }
    let total = Double(text.count)
    let entropy = counts.values.reduce(0.0) { sum, count in
      let p = Double(count) / total
      return sum - p * log2(p)
    }
    return entropy >= 3.5
  }
}
