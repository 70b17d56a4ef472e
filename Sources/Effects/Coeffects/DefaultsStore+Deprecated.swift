public import Foundation

// The key-value-coding names of `DefaultsStore`, before it spoke one Swift-style vocabulary with
// the `for:` label. Each forwards to what replaces it.

extension DefaultsStore {
  /// The value stored under `key`: the old name of ``value(for:)-(String)``.
  ///
  /// A conforming type implements `value(for:)` instead of `value(forKey:)`.
  @available(*, deprecated, renamed: "value(for:)")
  public func value(forKey key: String) -> DefaultsValue? {
    value(for: key)
  }

  /// Stores `value` under `key`: the old name of ``set(_:for:)-(DefaultsValue?,String)``.
  ///
  /// A conforming type implements `set(_:for:)` instead of `setValue(_:forKey:)`.
  @available(*, deprecated, renamed: "set(_:for:)")
  public func setValue(_ value: DefaultsValue?, forKey key: String) {
    set(value, for: key)
  }

  /// Removes whatever is stored under `key`: the old name of ``removeValue(for:)-(String)``.
  @available(*, deprecated, renamed: "removeValue(for:)")
  public func removeValue(forKey key: String) {
    removeValue(for: key)
  }
}

extension DefaultsStore {
  /// The string stored under `key`; `nil` when the key is missing or holds another type.
  ///
  /// Read through a typed key instead: `try? value(for: DefaultsKey<String>(key))` is `nil` in the
  /// same cases, and `try value(for:)` says what it found instead.
  @available(*, deprecated, message: "read through a typed key: try? value(for: DefaultsKey<String>(key))")
  public func string(forKey key: String) -> String? {
    try? value(for: DefaultsKey<String>(key))
  }

  /// The integer stored under `key`; `nil` when the key is missing or holds another type.
  ///
  /// Read through a typed key instead: `try? value(for: DefaultsKey<Int>(key))`.
  @available(*, deprecated, message: "read through a typed key: try? value(for: DefaultsKey<Int>(key))")
  public func int(forKey key: String) -> Int? {
    try? value(for: DefaultsKey<Int>(key))
  }

  /// The Boolean stored under `key`; `nil` when the key is missing or holds another type.
  ///
  /// Read through a typed key instead: `try? value(for: DefaultsKey<Bool>(key))`.
  @available(*, deprecated, message: "read through a typed key: try? value(for: DefaultsKey<Bool>(key))")
  public func bool(forKey key: String) -> Bool? {
    try? value(for: DefaultsKey<Bool>(key))
  }

  /// The double stored under `key`; `nil` when the key is missing or holds another type.
  ///
  /// Read through a typed key instead: `try? value(for: DefaultsKey<Double>(key))`.
  @available(*, deprecated, message: "read through a typed key: try? value(for: DefaultsKey<Double>(key))")
  public func double(forKey key: String) -> Double? {
    try? value(for: DefaultsKey<Double>(key))
  }

  /// The bytes stored under `key`; `nil` when the key is missing or holds another type.
  ///
  /// Read through a typed key instead: `try? value(for: DefaultsKey<Data>(key))`.
  @available(*, deprecated, message: "read through a typed key: try? value(for: DefaultsKey<Data>(key))")
  public func data(forKey key: String) -> Data? {
    try? value(for: DefaultsKey<Data>(key))
  }

  /// The date stored under `key`; `nil` when the key is missing or holds another type.
  ///
  /// Read through a typed key instead: `try? value(for: DefaultsKey<Date>(key))`.
  @available(*, deprecated, message: "read through a typed key: try? value(for: DefaultsKey<Date>(key))")
  public func date(forKey key: String) -> Date? {
    try? value(for: DefaultsKey<Date>(key))
  }
}

extension DefaultsStore {
  /// Stores a string under `key`.
  ///
  /// Write through a typed key instead, `set(value, for: DefaultsKey<String>(key))`, or store the
  /// value, `set(.string(value), for: key)`.
  @available(*, deprecated, message: "write through a typed key, set(value, for: DefaultsKey<String>(key))")
  public func set(_ value: String, forKey key: String) {
    set(.string(value), for: key)
  }

  /// Stores an integer under `key`.
  ///
  /// Write through a typed key instead, `set(value, for: DefaultsKey<Int>(key))`, or store the
  /// value, `set(.int(value), for: key)`.
  @available(*, deprecated, message: "write through a typed key, set(value, for: DefaultsKey<Int>(key))")
  public func set(_ value: Int, forKey key: String) {
    set(.int(value), for: key)
  }

  /// Stores a Boolean under `key`.
  ///
  /// Write through a typed key instead, `set(value, for: DefaultsKey<Bool>(key))`, or store the
  /// value, `set(.bool(value), for: key)`.
  @available(*, deprecated, message: "write through a typed key, set(value, for: DefaultsKey<Bool>(key))")
  public func set(_ value: Bool, forKey key: String) {
    set(.bool(value), for: key)
  }

  /// Stores a double under `key`.
  ///
  /// Write through a typed key instead, `set(value, for: DefaultsKey<Double>(key))`, or store the
  /// value, `set(.double(value), for: key)`.
  @available(*, deprecated, message: "write through a typed key, set(value, for: DefaultsKey<Double>(key))")
  public func set(_ value: Double, forKey key: String) {
    set(.double(value), for: key)
  }

  /// Stores bytes under `key`.
  ///
  /// Write through a typed key instead, `set(value, for: DefaultsKey<Data>(key))`, or store the
  /// value, `set(.data(value), for: key)`.
  @available(*, deprecated, message: "write through a typed key, set(value, for: DefaultsKey<Data>(key))")
  public func set(_ value: Data, forKey key: String) {
    set(.data(value), for: key)
  }

  /// Stores a date under `key`.
  ///
  /// Write through a typed key instead, `set(value, for: DefaultsKey<Date>(key))`, or store the
  /// value, `set(.date(value), for: key)`.
  @available(*, deprecated, message: "write through a typed key, set(value, for: DefaultsKey<Date>(key))")
  public func set(_ value: Date, forKey key: String) {
    set(.date(value), for: key)
  }
}

extension DefaultsStore {
  /// Stores `value` under `key` as JSON data (keys sorted, so the bytes are stable).
  ///
  /// Write through a typed key instead: `set(value, for: DefaultsKey<T>(key))` stores the same
  /// JSON for every type but `String`, `Int`, `Bool`, `Double`, `Data` and `Date`, which it stores
  /// as themselves. To handle an encoding error, encode with the key, which throws:
  /// `set(try DefaultsKey<T>(key).encode(value), for: key)`.
  ///
  /// - Throws: ``DefaultsCodingError`` when `value`'s `encode(to:)` throws or encodes nothing.
  @available(*, deprecated, message: "write through a typed key: set(value, for: DefaultsKey<T>(key))")
  public func encode<T: Encodable>(_ value: T, forKey key: String) throws {
    do {
      set(.data(try DefaultsJSON.encode(value)), for: key)
    } catch {
      throw DefaultsCodingError(key: key, type: T.self, problem: .encodingFailed(error))
    }
  }

  /// The value of type `T` decoded from the JSON stored under `key`; `nil` when the key is missing.
  ///
  /// Read through a typed key instead: `try value(for: DefaultsKey<T>(key))` reads the same JSON
  /// (as data or as text) and throws the same errors.
  ///
  /// - Throws: ``DefaultsCodingError`` naming the key, the type and what was found when the key
  ///   holds something that is not JSON, or JSON that does not decode as `T`.
  @available(*, deprecated, message: "read through a typed key: try value(for: DefaultsKey<T>(key))")
  public func decode<T: Decodable>(_ type: T.Type, forKey key: String) throws -> T? {
    guard let stored = value(for: key) else { return nil }
    return try DefaultsJSON.value(T.self, from: stored, key: key)
  }
}
