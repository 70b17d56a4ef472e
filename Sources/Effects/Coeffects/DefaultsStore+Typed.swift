public import Foundation

extension DefaultsStore {
  /// The string stored under `key`; `nil` when the key is missing or holds another type.
  public func string(forKey key: String) -> String? {
    guard case .string(let value) = value(forKey: key) else { return nil }
    return value
  }

  /// The integer stored under `key`; `nil` when the key is missing or holds another type
  /// (a stored `Bool` or `Double` is not an integer).
  public func int(forKey key: String) -> Int? {
    guard case .int(let value) = value(forKey: key) else { return nil }
    return value
  }

  /// The Boolean stored under `key`; `nil` when the key is missing or holds another type
  /// (a stored `1` is an integer, not `true`).
  public func bool(forKey key: String) -> Bool? {
    guard case .bool(let value) = value(forKey: key) else { return nil }
    return value
  }

  /// The double stored under `key`; `nil` when the key is missing or holds another type.
  public func double(forKey key: String) -> Double? {
    guard case .double(let value) = value(forKey: key) else { return nil }
    return value
  }

  /// The bytes stored under `key`; `nil` when the key is missing or holds another type.
  public func data(forKey key: String) -> Data? {
    guard case .data(let value) = value(forKey: key) else { return nil }
    return value
  }

  /// The date stored under `key`; `nil` when the key is missing or holds another type.
  public func date(forKey key: String) -> Date? {
    guard case .date(let value) = value(forKey: key) else { return nil }
    return value
  }

  /// Stores a string under `key`.
  public func set(_ value: String, forKey key: String) { setValue(.string(value), forKey: key) }

  /// Stores an integer under `key`.
  public func set(_ value: Int, forKey key: String) { setValue(.int(value), forKey: key) }

  /// Stores a Boolean under `key`.
  public func set(_ value: Bool, forKey key: String) { setValue(.bool(value), forKey: key) }

  /// Stores a double under `key`.
  public func set(_ value: Double, forKey key: String) { setValue(.double(value), forKey: key) }

  /// Stores bytes under `key`.
  public func set(_ value: Data, forKey key: String) { setValue(.data(value), forKey: key) }

  /// Stores a date under `key`.
  public func set(_ value: Date, forKey key: String) { setValue(.date(value), forKey: key) }

  /// Removes whatever is stored under `key`.
  public func removeValue(forKey key: String) { setValue(nil, forKey: key) }

  /// Stores `value` under `key` as JSON data (keys sorted, so the bytes are stable).
  ///
  /// ```swift
  /// struct Profile: Codable { var name: String }
  /// try environment.defaults.encode(Profile(name: "Blob"), forKey: "profile")
  /// let profile = try environment.defaults.decode(Profile.self, forKey: "profile")
  /// ```
  ///
  /// A ``DefaultsKey`` names the key and the type once, and stores `String`, `Int`, `Bool`,
  /// `Double`, `Data` and `Date` as themselves: prefer ``set(_:for:)`` and ``value(for:)``.
  ///
  /// - Throws: ``DefaultsCodingError`` when `value`'s `encode(to:)` throws or encodes nothing.
  public func encode<T: Encodable>(_ value: T, forKey key: String) throws {
    do {
      setValue(.data(try DefaultsJSON.encode(value)), forKey: key)
    } catch {
      throw DefaultsCodingError(key: key, type: T.self, problem: .encodingFailed(error))
    }
  }

  /// The value of type `T` decoded from the JSON stored under `key`; `nil` when the key is missing.
  ///
  /// JSON stored as `.data` (what ``encode(_:forKey:)`` writes) or as a `.string` is accepted.
  ///
  /// - Throws: ``DefaultsCodingError`` naming the key, the type and what was found when the key
  ///   holds something that is not JSON, or JSON that does not decode as `T`.
  public func decode<T: Decodable>(_ type: T.Type, forKey key: String) throws -> T? {
    guard let stored = value(forKey: key) else { return nil }
    return try DefaultsJSON.value(T.self, from: stored, key: key)
  }
}
