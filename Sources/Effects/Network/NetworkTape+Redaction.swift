import Foundation

extension NetworkTape {
  /// What a recording leaves out of the tape: the values of some header fields, of some query
  /// items of the URL, of some fields of JSON and form bodies wherever they are nested, and the
  /// user and password of URLs. Each is written as ``NetworkTape/redacted``.
  ///
  /// ```swift
  /// .standard.adding(headers: ["X-Session"], bodyFields: ["pin"])
  /// ```
  ///
  /// ``standard``, the redaction of every recording unless told otherwise, leaves out, in requests
  /// and in responses, what a security reviewer expects:
  ///
  /// | where | what | why |
  /// | --- | --- | --- |
  /// | header fields | `Authorization`, `Proxy-Authorization` | they carry the credentials of a request |
  /// | header fields | `Cookie`, `Set-Cookie` | a session cookie is a credential |
  /// | header fields | any field whose name has the word `token`, `key`, `secret`, `password`, `auth`, `credential` or `signature` (`X-API-Key`, `X-Auth-Token`, `X-Amz-Security-Token`, `Ocp-Apim-Subscription-Key`) | that is how APIs name the header of a key |
  /// | the URL | its user and password (`https://user:pass@host`) | URLSession sends them as `Authorization` |
  /// | query items and body fields | a credential's name, whatever its case and separators: `password`, `passwd`, `passphrase`, `pwd`, `secret`, `token`, `apikey`, `jwt`, `otp`, and any name ending in `token`, `secret`, `password`, `apikey`, `privatekey`, `secretkey`, `sessionid`, `authorization` or `credentials` (`access_token`, `refreshToken`, `client_secret`, `api-key`, `X-Amz-Credential`) | OAuth, sign-in forms and API keys |
  /// | query items | `key`, `sig`, `signature`, and names ending in `signature` | the API keys and signed URLs of Google, Azure and AWS |
  ///
  /// Body fields are found at any depth of a JSON body, in a JSON string that itself holds JSON
  /// (`{"variables":"{\"password\":…}"}`), and in a form body by their last part (`user[password]`,
  /// `user.password`). A credential written inside a value (`login(password: "…")`,
  /// `x=1;access_token=…`, a URL's fragment or path, a `Location` header's URL) is redacted in
  /// place, the rest of the value kept. A body that is neither JSON nor a form (text, multipart, bytes) and holds
  /// the name of a field to redact (for ``standard``: `password`, `passwd`, `secret`, `token`,
  /// `apikey`, `api_key`, `api-key`, `privatekey`, `private_key` or `bearer`, in any case) is left
  /// out whole, whatever its encoding: what the redaction cannot take apart, it does not keep.
  ///
  /// A test that needs such a value on the tape keeps it by name, in the test, where a reviewer
  /// sees it:
  ///
  /// ```swift
  /// .standard.keeping(bodyFields: ["nextPageToken"])
  /// ```
  ///
  /// Header names are compared whatever their case; body fields and query items named with
  /// ``adding(headers:bodyFields:queryItems:)`` or
  /// ``keeping(headers:bodyFields:queryItems:valuesStartingWith:)`` by their exact name.
  public struct Redaction: Hashable, Sendable {
    /// The header fields whose values are redacted, named one by one, in lowercase.
    public private(set) var headers: Set<String>
    /// The body fields whose values are redacted, named one by one.
    public private(set) var bodyFields: Set<String>
    /// The query items of a request's URL whose values are redacted, named one by one.
    public private(set) var queryItems: Set<String>
    /// Whether what names itself a credential is redacted too, wherever it is (the table above),
    /// with the user and password of URLs: ``standard`` does.
    public private(set) var redactsCredentials: Bool
    /// The header fields kept as they are, in lowercase: neither redacted nor reported by the
    /// check of a tape before it is written.
    public private(set) var keptHeaders: Set<String> = []
    /// The body fields kept as they are.
    public private(set) var keptBodyFields: Set<String> = []
    /// The query items kept as they are.
    public private(set) var keptQueryItems: Set<String> = []
    /// The prefixes of values that the check of a tape before it is written does not report,
    /// wherever they are: `sk_test_` for a test's fake Stripe key.
    public private(set) var keptValuePrefixes: Set<String> = []

    /// Redacts the values of `headers`, of the body fields `bodyFields` and of the URL's query
    /// items `queryItems`, and nothing else (not even ``standard``'s).
    public init(headers: Set<String> = [], bodyFields: Set<String> = [], queryItems: Set<String> = []) {
      self.headers = Set(headers.map { $0.lowercased() })
      self.bodyFields = bodyFields
      self.queryItems = queryItems
      self.redactsCredentials = false
    }

    /// What a recording redacts unless told otherwise: every credential of the table above, in
    /// requests and responses.
    public static let standard: Redaction = {
      var redaction = Redaction(headers: ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"])
      redaction.redactsCredentials = true
      return redaction
    }()

    /// Redacts nothing. The check of a tape before it is written still refuses what looks like a
    /// credential.
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
      redaction.keptHeaders.subtract(headers.map { $0.lowercased() })
      redaction.keptBodyFields.subtract(bodyFields)
      redaction.keptQueryItems.subtract(queryItems)
      return redaction
    }

    /// This redaction, keeping `headers`, `bodyFields` and `queryItems` as they are: the values
    /// of those names are written to the tape, and the check of a tape before it is written does
    /// not report them; nor does it report a value that starts with one of `valuesStartingWith`.
    /// For a value that is no secret (a page token, a test's fake key), stated in the test.
    ///
    /// ```swift
    /// StubNetwork(tape: "feed", redacting: .standard.keeping(bodyFields: ["nextPageToken"]))
    /// ```
    public func keeping(
      headers: Set<String> = [],
      bodyFields: Set<String> = [],
      queryItems: Set<String> = [],
      valuesStartingWith prefixes: Set<String> = []
    ) -> Redaction {
      var redaction = self
      redaction.keptValuePrefixes.formUnion(prefixes.filter { !$0.isEmpty })
      redaction.keptHeaders.formUnion(headers.map { $0.lowercased() })
      redaction.keptBodyFields.formUnion(bodyFields)
      redaction.keptQueryItems.formUnion(queryItems)
      redaction.headers.subtract(headers.map { $0.lowercased() })
      redaction.bodyFields.subtract(bodyFields)
      redaction.queryItems.subtract(queryItems)
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

    // MARK: Names

    /// Whether the value of the header field `name` is redacted.
    package func redacts(header name: String) -> Bool {
      let name = name.lowercased()
      if headers.contains(name) { return true }
      return redactsCredentials && !keptHeaders.contains(name) && Self.isCredential(header: name)
    }

    /// Whether the value of the body field `name` is redacted: by its name, or by its last part
    /// (`password` of `user[password]`).
    package func redacts(bodyField name: String) -> Bool {
      let last = FormBody.lastPart(of: name)
      for name in Set([name, last]) {
        if bodyFields.contains(name) { return true }
        if redactsCredentials && !keptBodyFields.contains(name) && Self.isCredential(field: name) { return true }
      }
      return false
    }

    /// Whether the value of the query item `name` is redacted.
    package func redacts(queryItem name: String) -> Bool {
      if queryItems.contains(name) { return true }
      return redactsCredentials && !keptQueryItems.contains(name) && Self.isCredential(queryItem: name)
    }

    /// Whether the header field `name` (lowercased) says it carries a credential.
    package static func isCredential(header name: String) -> Bool {
      let words = name.split { !$0.isLetter && !$0.isNumber }
      return words.contains { headerWords.contains(String($0)) } || isCredential(field: name)
    }

    /// Whether the body field `name` is a credential's.
    package static func isCredential(field name: String) -> Bool {
      let compact = Self.compact(name)
      return fieldNames.contains(compact) || fieldEndings.contains { compact.hasSuffix($0) }
    }

    /// Whether the query item `name` is a credential's.
    package static func isCredential(queryItem name: String) -> Bool {
      let compact = Self.compact(name)
      return isCredential(field: name) || queryNames.contains(compact) || compact.hasSuffix("signature")
    }

    /// `name` in lowercase, without what is not a letter or a digit: `refresh_token`,
    /// `refreshToken` and `Refresh-Token` are all `refreshtoken`.
    private static func compact(_ name: String) -> String {
      String(
        name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }
          .map { Character(lookalikes[$0] ?? $0) }
      )
    }

    /// Cyrillic and Greek letters that look like Latin ones (`pаssword` with a Cyrillic `а`), read
    /// as the Latin letter.
    private static let lookalikes: [Unicode.Scalar: Unicode.Scalar] = [
      "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "х": "x", "у": "y", "к": "k", "м": "m", "т": "t",
      "і": "i", "ѕ": "s", "ԁ": "d", "ο": "o", "α": "a", "ε": "e", "κ": "k", "τ": "t", "ρ": "p",
    ]

    private static let headerWords: Set<String> = [
      "token", "key", "secret", "password", "passwd", "auth", "authorization", "credential", "credentials",
      "signature", "cookie", "apikey",
    ]
    private static let fieldNames: Set<String> = [
      "password", "passwd", "passphrase", "pwd", "pass", "passcode", "secret", "token", "apikey", "jwt", "otp", "auth",
      "passwords", "secrets", "tokens", "accesstokens", "refreshtokens", "idtokens", "authtokens", "apikeys",
    ]
    private static let fieldEndings = [
      "token", "secret", "password", "passwd", "apikey", "privatekey", "secretkey", "secretaccesskey", "sessionid",
      "authorization", "credential", "credentials",
    ]
    private static let queryNames: Set<String> = ["key", "sig", "signature"]

    /// The words that make a body of no known shape left out whole, in lowercase.
    private var bodyWords: [String] {
      var words = Set(bodyFields.map { $0.lowercased() })
      if redactsCredentials {
        let kept = Set(keptBodyFields.map { $0.lowercased() })
        words.formUnion(Self.credentialWords.filter { !kept.contains($0) })
      }
      return words.filter { !$0.isEmpty }.sorted()
    }

    private static let credentialWords = [
      "password", "passwd", "secret", "token", "apikey", "api_key", "api-key", "privatekey", "private_key", "bearer",
    ]

    // MARK: Redacting

    private func redact(_ fields: [String: String]) -> [String: String] {
      fields.reduce(into: [:]) { redacted, field in
        if redacts(header: field.key) {
          redacted[field.key] = NetworkTape.redacted
        } else if let url = URL(string: field.value), url.scheme != nil, url.host != nil {
          // A URL a header carries (`Location`): its query, fragment and user info too.
          redacted[field.key] = redact(url).absoluteString
        } else {
          redacted[field.key] = redactingAssignments(in: field.value)
        }
      }
    }

    /// `text` with the value of every `name=value`, `name: value` or `"name": "value"` whose name
    /// is a field to redact replaced by `replacement`: a credential written inside a value
    /// (`login(password: "…")`, `{'password': '…'}`, `x=1;access_token=…`).
    func redactingAssignments(in text: String, replacement: String = NetworkTape.redacted) -> String {
      guard redactsCredentials || !bodyFields.isEmpty, text.contains(where: { $0 == "=" || $0 == ":" }) else {
        return text
      }
      let scalars = Array(text.unicodeScalars)
      func isName(_ scalar: Unicode.Scalar) -> Bool {
        CharacterSet.alphanumerics.contains(scalar) || "_-.[]".unicodeScalars.contains(scalar)
      }
      var out = String.UnicodeScalarView()
      var changed = false
      var index = 0
      while index < scalars.count {
        guard isName(scalars[index]), index == 0 || !isName(scalars[index - 1]) else {
          out.append(scalars[index])
          index += 1
          continue
        }
        var end = index
        while end < scalars.count, isName(scalars[end]) { end += 1 }
        var next = end
        while next < scalars.count, "\"'` \t".unicodeScalars.contains(scalars[next]) { next += 1 }
        guard next < scalars.count, scalars[next] == "=" || scalars[next] == ":",
          redacts(bodyField: String(String.UnicodeScalarView(scalars[index..<end])))
        else {
          out.append(contentsOf: scalars[index..<end])
          index = end
          continue
        }
        var start = next + 1
        while start < scalars.count, scalars[start] == " " || scalars[start] == "\t" { start += 1 }
        var quote: Unicode.Scalar?
        if start < scalars.count, "\"'`".unicodeScalars.contains(scalars[start]) {
          quote = scalars[start]
          start += 1
        }
        var stop = start
        while stop < scalars.count {
          let scalar = scalars[stop]
          if let quote {
            if scalar == quote, scalars[stop - 1] != "\\" { break }
          } else if "&;#,)}]\"' \t\r\n?/".unicodeScalars.contains(scalar) {
            break
          }
          stop += 1
        }
        out.append(contentsOf: scalars[index..<start])
        let value = String(String.UnicodeScalarView(scalars[start..<stop]))
        if value.isEmpty || value == replacement || value == NetworkTape.redacted {
          out.append(contentsOf: scalars[start..<stop])
        } else {
          out.append(contentsOf: replacement.unicodeScalars)
          changed = true
        }
        index = stop
      }
      return changed ? String(out) : text
    }

    /// A value of a query item or form field as a tape keeps it (decoded): JSON inside redacted,
    /// and credentials written inside it.
    private func redactingInside(_ value: String) -> String {
      if let json = JSONValue(holdsJSON: value) {
        let redacted = json.redacting { redacts(bodyField: $0) }
        return redacted == json ? value : String(decoding: redacted.data, as: UTF8.self)
      }
      return redactingAssignments(in: value)
    }

    /// What stands for a redacted user, password or query item in a URL.
    private static let encodedRedacted = "%3Credacted%3E"

    /// `url` as a tape keeps it: its user info and credential query items redacted; and, for a
    /// request's URL or one a header carries, credentials written in its path (`;jsessionid=`),
    /// in a query item's value (JSON, `x=1;access_token=`) and in its fragment
    /// (`#access_token=`). The items it keeps are left as they were encoded.
    private func redact(_ url: URL) -> URL {
      guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
      var changed = false
      if redactsCredentials, components.percentEncodedUser != nil || components.percentEncodedPassword != nil {
        components.percentEncodedUser = Self.encodedRedacted
        if components.percentEncodedPassword != nil { components.percentEncodedPassword = Self.encodedRedacted }
        changed = true
      }
      if let items = components.percentEncodedQueryItems {
        var itemsChanged = false
        let redacted = items.map { item -> URLQueryItem in
          let name = item.name.removingPercentEncoding ?? item.name
          if redacts(queryItem: name) {
            itemsChanged = true
            return URLQueryItem(name: item.name, value: Self.encodedRedacted)
          }
          guard let value = item.value,
            let decoded = value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
          else { return item }
          let inside = redactingInside(decoded)
          guard inside != decoded else { return item }
          itemsChanged = true
          return URLQueryItem(name: item.name, value: Self.encoded(inside))
        }
        if itemsChanged {
          components.percentEncodedQueryItems = redacted
          changed = true
        }
      }
      if let fragment = components.percentEncodedFragment, let decoded = fragment.removingPercentEncoding {
        let inside = redactingAssignments(in: decoded)
        if inside != decoded {
          components.percentEncodedFragment = Self.encoded(inside)
          changed = true
        }
      }
      let path = components.percentEncodedPath
      if path.contains(";") || path.contains("="), let decoded = path.removingPercentEncoding {
        let inside = redactingAssignments(in: decoded)
        if inside != decoded {
          components.percentEncodedPath = inside.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
          changed = true
        }
      }
      return changed ? components.url ?? url : url
    }

    /// `text` percent-encoded for a query item's value or a fragment.
    private static func encoded(_ text: String) -> String {
      var allowed = CharacterSet.urlQueryAllowed
      allowed.remove(charactersIn: "&=+;#")
      return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// `body` as a tape keeps it: a JSON object or array in its stable form, with the fields to
    /// redact redacted (kept byte for byte instead when a number of it would not survive, unless
    /// a field must be redacted); a form with its fields to redact redacted; and any other body
    /// that names a field to redact left out whole, whatever its encoding.
    private func redact(_ body: Data) -> Data {
      if let json = JSONValue(structured: body) {
        let redacted = json.redacting({ redacts(bodyField: $0) }, strings: { redactingAssignments(in: $0) })
        return redacted != json || JSONValue.keepsEveryNumber(of: body) ? redacted.data : body
      }
      if let form = FormBody(body) {
        let redacted = form.redacting({ redacts(bodyField: $0) }, values: { redactingInside($0) })
        return redacted ?? body
      }
      return leavesOut(body) ? Data(NetworkTape.redacted.utf8) : body
    }

    /// Whether `body`, which `redact(_:)` found to be neither JSON nor a form, names a
    /// field to redact: it is left out whole.
    private func leavesOut(_ body: Data) -> Bool {
      let words = bodyWords
      guard !words.isEmpty, !body.isEmpty else { return false }
      let lowered = Data(body.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 })
      // The words as UTF-8, and as UTF-16 of either byte order; and in the body read as UTF-8
      // once percent-escapes are decoded (`pass%77ord`).
      let decoded = String(data: body, encoding: .utf8)?.removingPercentEncoding.map { Data($0.lowercased().utf8) }
      return words.contains { word in
        let utf8 = Data(word.utf8)
        let little = Data(word.utf8.flatMap { [$0, 0] })
        let big = Data(word.utf8.flatMap { [0, $0] })
        return lowered.range(of: utf8) != nil || lowered.range(of: little) != nil || lowered.range(of: big) != nil
          || decoded?.range(of: utf8) != nil
      }
    }
  }
}
