public import Foundation

/// A value a ``DefaultsStore`` can hold: the property-list types, with no `Any`.
///
/// Because it is an enum of concrete types, stores are `Sendable`, values compare with `==`, and
/// a Bool stays a Bool (never read back as the integer 1). Literals build values directly:
///
/// ```swift
/// let value: DefaultsValue = ["theme": "dark", "fontSize": 14, "sounds": true]
/// #expect(value == .dictionary(["theme": .string("dark"), "fontSize": .int(14), "sounds": .bool(true)]))
/// ```
public enum DefaultsValue: Hashable, Sendable {
  /// Text.
  case string(String)
  /// A whole number.
  case int(Int)
  /// A floating-point number.
  case double(Double)
  /// A Boolean.
  case bool(Bool)
  /// Raw bytes (also how `Codable` values are stored, as JSON).
  case data(Data)
  /// An instant.
  case date(Date)
  /// An ordered list of values.
  case array([DefaultsValue])
  /// Values by string key.
  case dictionary([String: DefaultsValue])

  /// The name of this value's type, as used in error messages: `"string"`, `"int"`, ….
  package var typeName: String {
    switch self {
    case .string: "string"
    case .int: "int"
    case .double: "double"
    case .bool: "bool"
    case .data: "data"
    case .date: "date"
    case .array: "array"
    case .dictionary: "dictionary"
    }
  }
}

extension DefaultsValue: CustomStringConvertible {
  /// A short, readable rendering: `"dark"`, `14`, `true`, `[1, 2]`, `["a": 1]`; data that is
  /// printable text shows it, `data({"age":42})`, so two JSON values differ visibly in a test
  /// failure, and other data shows its size, `3 bytes`.
  public var description: String {
    switch self {
    case .string(let value): "\"\(value)\""
    case .int(let value): "\(value)"
    case .double(let value): "\(value)"
    case .bool(let value): "\(value)"
    case .data(let value): Self.describe(value)
    case .date(let value): "\(value)"
    case .array(let values): "[\(values.map(\.description).joined(separator: ", "))]"
    case .dictionary(let values):
      values.isEmpty
        ? "[:]"
        : "[\(values.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", "))]"
    }
  }

  /// Text longer than this many characters is cut short in a description.
  private static let previewLength = 60

  private static func describe(_ data: Data) -> String {
    let size = data.count == 1 ? "1 byte" : "\(data.count) bytes"
    guard let text = printableText(data) else { return size }
    guard text.count > previewLength else { return "data(\(text))" }
    return "data(\(text.prefix(previewLength))… \(size))"
  }

  /// `data` as text when it is non-empty UTF-8 without control characters (so it prints on one
  /// line and is not mistaken for binary), `nil` otherwise.
  static func printableText(_ data: Data) -> String? {
    guard !data.isEmpty, let text = String(data: data, encoding: .utf8),
      text.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control })
    else { return nil }
    return text
  }
}

extension DefaultsValue: ExpressibleByStringLiteral {
  /// A `.string` value from a literal.
  public init(stringLiteral value: String) { self = .string(value) }
}

extension DefaultsValue: ExpressibleByIntegerLiteral {
  /// An `.int` value from a literal.
  public init(integerLiteral value: Int) { self = .int(value) }
}

extension DefaultsValue: ExpressibleByFloatLiteral {
  /// A `.double` value from a literal.
  public init(floatLiteral value: Double) { self = .double(value) }
}

extension DefaultsValue: ExpressibleByBooleanLiteral {
  /// A `.bool` value from a literal.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension DefaultsValue: ExpressibleByArrayLiteral {
  /// An `.array` value from a literal.
  public init(arrayLiteral elements: DefaultsValue...) { self = .array(elements) }
}

extension DefaultsValue: ExpressibleByDictionaryLiteral {
  /// A `.dictionary` value from a literal.
  public init(dictionaryLiteral elements: (String, DefaultsValue)...) {
    self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}
