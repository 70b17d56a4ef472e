public import Foundation

extension NetworkTape {
  /// The tape in the file at `file`.
  ///
  /// ```swift
  /// let tape = try NetworkTape(contentsOf: Bundle.main.url(forResource: "profile", withExtension: "json")!)
  /// ```
  ///
  /// - Throws: ``NetworkTapeError``, naming the file and what is wrong with it: there is no file,
  ///   it cannot be read, it is not a tape (with where in the file it stops being one), or it was
  ///   written by a newer version of this library.
  public init(contentsOf file: URL) throws(NetworkTapeError) {
    let data: Data
    do {
      data = try Data(contentsOf: file)
    } catch {
      let missing = !FileManager.default.fileExists(atPath: file.path)
      throw NetworkTapeError(file: file, problem: missing ? .missing : .unreadable("\(error)"))
    }
    try self.init(data: data, file: file)
  }

  /// The tape `data` holds, as ``init(contentsOf:)`` reads it; `file` names it in errors.
  package init(data: Data, file: URL) throws(NetworkTapeError) {
    let decoder = JSONDecoder()
    if let line = lineNestedTooDeep(in: data, limit: Self.deepestNesting) {
      throw NetworkTapeError(
        file: file,
        problem: .corrupt(
          "line \(line): JSON nested deeper than \(Self.deepestNesting) levels, which a tape's reader does not read"
        )
      )
    }
    if let duplicate = duplicateKey(in: data) {
      throw NetworkTapeError(
        file: file,
        problem: .corrupt(
          """
          line \(duplicate.line), \(Self.bounded(duplicate.path)): the key \(String(reflecting: Self.bounded(duplicate.key))) \
          is written twice in one object, and a reader would keep one of the two values
          """
        )
      )
    }
    let format: Int
    do {
      format = try decoder.decode(FormatField.self, from: data).format
    } catch {
      throw NetworkTapeError(file: file, problem: .corrupt(Self.describe(error)))
    }
    guard format <= Self.format else {
      throw NetworkTapeError(file: file, problem: .newerFormat(format))
    }
    if let unknown = JSONValue(structured: data).flatMap(Self.unknownField) {
      throw NetworkTapeError(file: file, problem: .corrupt(unknown))
    }
    let fields: [ExchangeFields]
    do {
      fields = try decoder.decode(File.self, from: data).exchanges
    } catch {
      throw NetworkTapeError(file: file, problem: .corrupt(Self.describe(error)))
    }
    var exchanges: [Exchange] = []
    for (index, exchange) in fields.enumerated() {
      do throws(FieldError) {
        exchanges.append(try exchange.exchange)
      } catch {
        throw NetworkTapeError(file: file, problem: .corrupt("exchanges[\(index)].\(error.path): \(error.reason)"))
      }
    }
    self.exchanges = exchanges
  }

  /// How deep a tape's JSON may nest: a file nested deeper is refused before it is decoded.
  static let deepestNesting = 256

  /// `text`, or its first 200 characters and an ellipsis: a report quotes a file, never all of it.
  static func bounded(_ text: String) -> String {
    text.count > 200 ? "\(text.prefix(199))…" : text
  }

  /// Where the file `value` has a field no tape has (a misspelled `latencyMs`, which a decoder
  /// would skip), or names one header field twice in two cases: nil when it has neither.
  private static func unknownField(in value: JSONValue) -> String? {
    func unknown(_ fields: [String: JSONValue], _ known: [String], at path: String, in what: String) -> String? {
      guard let field = fields.keys.sorted().first(where: { !known.contains($0) }) else { return nil }
      return """
        \(path): an unknown field \(String(reflecting: bounded(field))) (\(what) has \
        \(known.sorted().joined(separator: ", ")))
        """
    }
    guard case .object(let top) = value else { return nil }
    if let found = unknown(top, ["format", "exchanges"], at: "the top level", in: "a tape") { return found }
    guard case .array(let exchanges)? = top["exchanges"] else { return nil }
    for (index, exchange) in exchanges.enumerated() {
      guard case .object(let fields) = exchange else { continue }
      let path = "exchanges[\(index)]"
      let known = ["request", "response", "latencyMilliseconds"]
      if let found = unknown(fields, known, at: path, in: "an exchange") { return found }
      for (message, known) in [
        ("request", ["method", "url", "headers", "json", "text", "base64"]),
        ("response", ["status", "headers", "json", "text", "base64"]),
      ] {
        guard case .object(let fields)? = fields[message] else { continue }
        if let found = unknown(fields, known, at: "\(path).\(message)", in: "a \(message)") { return found }
        guard case .object(let headers)? = fields["headers"] else { continue }
        var seen: [String: String] = [:]
        for name in headers.keys.sorted() {
          guard let other = seen.updateValue(name, forKey: name.lowercased()) else { continue }
          return """
            \(path).\(message).headers: \(String(reflecting: bounded(other))) and \
            \(String(reflecting: bounded(name))) name one header field, whose case does not matter: keep one
            """
        }
      }
    }
    return nil
  }

  /// The tape as its file holds it: pretty-printed JSON, keys sorted, ending in a newline.
  public var fileContents: Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let file = File(format: Self.format, exchanges: exchanges.map(ExchangeFields.init))
    // Every field is a string, a finite number or JSON parsed from JSON: it always encodes.
    return ((try? encoder.encode(file)) ?? Data()) + Data("\n".utf8)
  }

  /// Writes the tape to `file`, replacing what was there at once (atomically), and making its
  /// folder if there is none.
  ///
  /// - Throws: ``NetworkTapeError`` naming the file, when it cannot be written.
  public func write(to file: URL) throws(NetworkTapeError) {
    do {
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(),
        withIntermediateDirectories: true
      )
      try fileContents.write(to: file, options: .atomic)
    } catch {
      throw NetworkTapeError(file: file, problem: .unwritable("\(error)"))
    }
  }

  /// Where a decoding error stopped, and why: `exchanges[1].response.status: expected a number`.
  private static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    func path(_ codingPath: [any CodingKey]) -> String {
      let path = codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
      return path.isEmpty ? "the top level" : String(path.drop { $0 == "." })
    }
    switch error {
    case .dataCorrupted(let context):
      let underlying = context.underlyingError.map { " (\($0.localizedDescription))" } ?? ""
      return "\(path(context.codingPath)): \(context.debugDescription)\(underlying)"
    case .keyNotFound(let key, let context):
      return "\(path(context.codingPath + [key])): the field is missing"
    case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
      return "\(path(context.codingPath)): expected \(type), \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }
}

/// Why a network tape cannot be read or written: the file, and what is wrong with it.
public struct NetworkTapeError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong.
  public enum Problem: Hashable, Sendable {
    /// There is no file there.
    case missing
    /// The file exists but cannot be read: the system's reason.
    case unreadable(String)
    /// The file is not a tape: where it stops being one, and why.
    case corrupt(String)
    /// The file is a tape of a newer format than ``NetworkTape/format``: the format it says.
    case newerFormat(Int)
    /// The file cannot be written: the system's reason.
    case unwritable(String)
  }

  /// The tape's file.
  public var file: URL
  /// What is wrong with it.
  public var problem: Problem

  /// The error `problem` with the tape at `file`.
  public init(file: URL, problem: Problem) {
    self.file = file
    self.problem = problem
  }

  /// What is wrong, naming the file, and what would be right.
  public var description: String {
    let path = file.path
    switch problem {
    case .missing:
      return "There is no network tape at \(path)."
    case .unreadable(let reason):
      return "The network tape at \(path) cannot be read: \(reason)."
    case .corrupt(let detail):
      return """
        The network tape at \(path) is not a tape: \(detail). A tape is the JSON that NetworkTape.write(to:) \
        writes, {"format": \(NetworkTape.format), "exchanges": [{"request": …, "response": …, \
        "latencyMilliseconds": …}]}: fix the file, or record it again.
        """
    case .newerFormat(let format):
      return """
        The network tape at \(path) is of format \(format), newer than format \(NetworkTape.format), the newest \
        this version of swift-effects reads. Update swift-effects, or record the tape again with this version.
        """
    case .unwritable(let reason):
      return """
        The network tape at \(path) cannot be written: \(reason). Record it into a folder this process can write \
        to.
        """
    }
  }
}

// MARK: - The file

/// The one field read first, to refuse a newer format before reading anything else.
private struct FormatField: Decodable {
  var format: Int
}

private struct File: Codable {
  var format: Int
  var exchanges: [ExchangeFields]
}

private struct ExchangeFields: Codable {
  var request: RequestFields
  var response: ResponseFields
  /// Whole microseconds, as milliseconds: `42.5`.
  var latencyMilliseconds: Double

  init(_ exchange: NetworkTape.Exchange) {
    request = RequestFields(exchange.request)
    response = ResponseFields(exchange.response)
    let microseconds = exchange.latency / .microseconds(1)
    latencyMilliseconds = microseconds.rounded() / 1_000
  }

  var exchange: NetworkTape.Exchange {
    get throws(FieldError) {
      guard latencyMilliseconds.isFinite, latencyMilliseconds >= 0, latencyMilliseconds < 1e15 else {
        throw FieldError(path: "latencyMilliseconds", reason: "\(latencyMilliseconds) is not a latency (0 or more)")
      }
      return NetworkTape.Exchange(
        request: try request.request,
        response: try response.response,
        latency: .microseconds(Int64((latencyMilliseconds * 1_000).rounded()))
      )
    }
  }
}

private struct RequestFields: Codable {
  var method: String
  var url: String
  var headers: [String: String]?
  var json: JSONValue?
  var text: String?
  var base64: String?

  init(_ request: NetworkRequest) {
    method = request.method
    url = request.url.absoluteString
    headers = request.headers.isEmpty ? nil : request.headers
    (json, text, base64) = BodyFields.fields(of: request.body)
  }

  var request: NetworkRequest {
    get throws(FieldError) {
      guard let parsed = URL(string: url), parsed.scheme != nil else {
        throw FieldError(
          path: "request.url",
          reason: "\(String(reflecting: NetworkTape.bounded(url))) is not an absolute URL"
        )
      }
      return NetworkRequest(
        method: method,
        url: parsed,
        headers: headers ?? [:],
        body: try BodyFields.body(json: json, text: text, base64: base64, in: "request")
      )
    }
  }
}

private struct ResponseFields: Codable {
  var status: Int
  var headers: [String: String]?
  var json: JSONValue?
  var text: String?
  var base64: String?

  init(_ response: NetworkResponse) {
    status = response.status
    headers = response.headers.isEmpty ? nil : response.headers
    (json, text, base64) = BodyFields.fields(of: response.body)
  }

  var response: NetworkResponse {
    get throws(FieldError) {
      guard (100...599).contains(status) else {
        throw FieldError(path: "response.status", reason: "\(status) is not an HTTP status (100 to 599)")
      }
      return NetworkResponse(
        status: status,
        headers: headers ?? [:],
        body: try BodyFields.body(json: json, text: text, base64: base64, in: "response")
      )
    }
  }
}

/// A body as the file writes it: a JSON object or array as JSON, other UTF-8 as text, anything
/// else in base64; no field at all when it is empty.
private enum BodyFields {
  static func fields(of body: Data) -> (json: JSONValue?, text: String?, base64: String?) {
    if body.isEmpty { return (nil, nil, nil) }
    // JSON nested deeper than a tape's reader reads, inside the file's own levels, is kept as text.
    if lineNestedTooDeep(in: body, limit: NetworkTape.deepestNesting - 8) == nil,
      let json = JSONValue(structured: body),
      JSONValue.keepsEveryNumber(of: body)
    {
      return (json, nil, nil)
    }
    // Text only when it gives back the same bytes (a byte-order mark would be lost).
    if let text = String(data: body, encoding: .utf8), Data(text.utf8) == body { return (nil, text, nil) }
    return (nil, nil, body.base64EncodedString())
  }

  static func body(json: JSONValue?, text: String?, base64: String?, in message: String) throws(FieldError) -> Data {
    let given = [json.map { _ in "json" }, text.map { _ in "text" }, base64.map { _ in "base64" }].compactMap { $0 }
    guard given.count <= 1 else {
      throw FieldError(
        path: message,
        reason: "a body is one of json, text or base64, and this one has \(given.joined(separator: " and "))"
      )
    }
    if let json { return json.data }
    if let text { return Data(text.utf8) }
    if let base64 {
      guard let body = Data(base64Encoded: base64) else {
        throw FieldError(path: "\(message).base64", reason: "not base64")
      }
      return body
    }
    return Data()
  }
}

/// A field of an exchange that decoded but does not make sense: where, and why.
private struct FieldError: Error {
  var path: String
  var reason: String
}
