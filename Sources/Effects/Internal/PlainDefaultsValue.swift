import Foundation

/// A type that a ``DefaultsKey`` stores as itself — a `.string`, `.int`, `.bool`, `.double`,
/// `.data` or `.date` — instead of as JSON, so `UserDefaults` holds a value other code can read.
///
/// The key finds out at run time (`Value.self as? any PlainDefaultsValue.Type`), not from
/// overloads: a key made in generic code stores a `String` the way a key made in concrete code
/// does.
protocol PlainDefaultsValue {
  /// The ``DefaultsValue/typeName`` of the case this type is stored as: `"string"`, `"int"`, ….
  static var defaultsTypeName: String { get }

  /// This value as the case it is stored as.
  var defaultsValue: DefaultsValue { get }

  /// The value held by `stored`, or `nil` when `stored` is another case (a `.bool` is never an
  /// `Int`, an `.int` never a `Double`).
  init?(defaultsValue stored: DefaultsValue)
}

extension String: PlainDefaultsValue {
  static var defaultsTypeName: String { "string" }
  var defaultsValue: DefaultsValue { .string(self) }
  init?(defaultsValue stored: DefaultsValue) {
    guard case .string(let value) = stored else { return nil }
    self = value
  }
}

extension Int: PlainDefaultsValue {
  static var defaultsTypeName: String { "int" }
  var defaultsValue: DefaultsValue { .int(self) }
  init?(defaultsValue stored: DefaultsValue) {
    guard case .int(let value) = stored else { return nil }
    self = value
  }
}

extension Bool: PlainDefaultsValue {
  static var defaultsTypeName: String { "bool" }
  var defaultsValue: DefaultsValue { .bool(self) }
  init?(defaultsValue stored: DefaultsValue) {
    guard case .bool(let value) = stored else { return nil }
    self = value
  }
}

extension Double: PlainDefaultsValue {
  static var defaultsTypeName: String { "double" }
  var defaultsValue: DefaultsValue { .double(self) }
  init?(defaultsValue stored: DefaultsValue) {
    guard case .double(let value) = stored else { return nil }
    self = value
  }
}

extension Data: PlainDefaultsValue {
  static var defaultsTypeName: String { "data" }
  var defaultsValue: DefaultsValue { .data(self) }
  init?(defaultsValue stored: DefaultsValue) {
    guard case .data(let value) = stored else { return nil }
    self = value
  }
}

extension Date: PlainDefaultsValue {
  static var defaultsTypeName: String { "date" }
  var defaultsValue: DefaultsValue { .date(self) }
  init?(defaultsValue stored: DefaultsValue) {
    guard case .date(let value) = stored else { return nil }
    self = value
  }
}
