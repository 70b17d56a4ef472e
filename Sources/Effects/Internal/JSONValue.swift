package import Foundation

/// A JSON value, as a network tape keeps a body that is JSON: compared by value (whatever the
/// spacing and the order of keys), redacted field by field, and written into the tape's file as
/// JSON rather than as a string.
package enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  /// A number written without a fraction or exponent that fits in 64 bits: kept exactly (an id
  /// past 2⁵³ would not survive a `Double`).
  case integer(Int64)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// The JSON object or array `data` holds (after a byte-order mark, if any); nil when it holds
  /// anything else (text, a bare number, bytes), which a tape keeps as it is.
  package init?(structured data: Data) {
    let data = data.starts(with: Self.byteOrderMark) ? data.dropFirst(Self.byteOrderMark.count) : data
    guard let first = data.first(where: { !Self.isSpace($0) }), first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    else { return nil }
    guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(data)) else { return nil }
    self = value
  }

  /// UTF-8's byte-order mark.
  private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// Whether every number written in `data`, JSON, survives as a ``JSONValue``: an integer that
  /// fits in 64 bits, or a number of at most 15 significant digits (which a `Double` gives back
  /// digit for digit). An id past 2⁶³ or a value with more digits does not: a tape keeps such a
  /// body as it is, so that it plays back what the server sent.
  package static func keepsEveryNumber(of data: Data) -> Bool {
    var strings = JSONStrings()
    var index = data.startIndex
    while index < data.endIndex {
      let byte = data[index]
      if strings.isInString(after: byte) {
        index += 1
        continue
      }
      guard byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
        index += 1
        continue
      }
      var end = index
      while end < data.endIndex, "-+.eE0123456789".utf8.contains(data[end]) { end += 1 }
      guard isKept(String(decoding: data[index..<end], as: UTF8.self)) else { return false }
      index = end
    }
    return true
  }

  /// Whether the number written `token` survives as a ``JSONValue``.
  private static func isKept(_ token: String) -> Bool {
    if !token.contains(where: { ".eE".contains($0) }) { return Int64(token) != nil }
    let parts = token.lowercased().split(separator: "e", maxSplits: 1)
    let digits = parts[0].filter(\.isNumber).drop { $0 == "0" }.reversed().drop { $0 == "0" }
    let exponent = parts.count > 1 ? Int(parts[1]) ?? Int.max : 0
    return digits.count <= 15 && abs(exponent) < 300 && (Double(token)?.isFinite ?? false)
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  /// The value written compactly, keys sorted: the same bytes for the same value.
  package var data: Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // A JSONValue always encodes: its numbers are finite (they were parsed from JSON).
    return (try? encoder.encode(self)) ?? Data()
  }

  /// Whether `sent` is this recorded value: equal, numbers compared by value, and a redacted
  /// string (``NetworkTape/redacted``) matching anything.
  package func matches(_ sent: JSONValue) -> Bool {
    switch (self, sent) {
    case (.string(NetworkTape.redacted), _):
      return true
    case (.string(let recorded), .string(let sent)) where recorded != sent:
      // A string holding JSON that was redacted inside: compared as JSON.
      guard recorded.contains(NetworkTape.redacted), let inner = Self(holdsJSON: recorded),
        let other = Self(holdsJSON: sent)
      else { return false }
      return inner.matches(other)
    case (.array(let recorded), .array(let sent)):
      return recorded.count == sent.count && zip(recorded, sent).allSatisfy { $0.matches($1) }
    case (.object(let recorded), .object(let sent)):
      return recorded.count == sent.count
        && recorded.allSatisfy { key, value in sent[key].map { value.matches($0) } ?? false }
    case (.integer(let recorded), .number(let sent)), (.number(let sent), .integer(let recorded)):
      return Double(recorded) == sent
    default:
      return self == sent
    }
  }

  /// This value with the value of every field whose name satisfies `isRedacted`, at any depth,
  /// replaced by ``NetworkTape/redacted``; a string that itself holds a JSON object or array is
  /// redacted inside, and written back as a string; any other string is passed to `strings`. A
  /// value nested deeper than 256 levels (strings holding JSON included) is redacted whole: what
  /// is not read is not kept.
  package func redacting(
    _ isRedacted: (String) -> Bool,
    strings: (String) -> String = { $0 },
    depth: Int = 0
  ) -> JSONValue {
    guard depth < 256 else { return .string(NetworkTape.redacted) }
    switch self {
    case .array(let values):
      return .array(values.map { $0.redacting(isRedacted, strings: strings, depth: depth + 1) })
    case .object(let members):
      return .object(
        members.reduce(into: [:]) { redacted, member in
          redacted[member.key] =
            isRedacted(member.key)
            ? .string(NetworkTape.redacted) : member.value.redacting(isRedacted, strings: strings, depth: depth + 1)
        }
      )
    case .string(let text):
      guard let inner = Self(holdsJSON: text) else {
        let rewritten = strings(text)
        return rewritten == text ? self : .string(rewritten)
      }
      let redacted = inner.redacting(isRedacted, strings: strings, depth: depth + 1)
      return redacted == inner ? self : .string(String(decoding: redacted.data, as: UTF8.self))
    default:
      return self
    }
  }

  /// The JSON object or array the string `text` holds; nil when it holds anything else.
  package init?(holdsJSON text: String) {
    guard let first = text.utf8.first(where: { !Self.isSpace($0) }),
      first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    else { return nil }
    self.init(structured: Data(text.utf8))
  }
}

extension JSONValue: Codable {
  package init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}
