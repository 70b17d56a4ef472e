public import Foundation

/// A small secure-store facade with a cache in front of its storage: the seed's self-mocking
/// keychain.
///
/// With `storage: nil` it keeps everything in its cache and touches nothing else: it *is* its own
/// mock, and cannot diverge from the real thing, because it is the real thing minus the storage.
///
/// ```swift
/// let keychain = Keychain(storage: FileKeychainStorage(directory: supportDirectory))  // the app
/// let keychain = Keychain(storage: nil)                                               // a test
/// try await keychain.set(string: "s3cr3t", for: "token")
/// ```
///
/// Encodings live here, once: strings are UTF-8 bytes, Booleans and integers are JSON fragments.
public actor Keychain {
  private var cache: [String: Data] = [:]
  private let storage: (any KeychainStorage)?

  /// Creates a keychain over `storage`; `nil` keeps values in memory only.
  public init(storage: (any KeychainStorage)?) {
    self.storage = storage
  }

  /// The bytes stored under `key`, or `nil`.
  public func data(for key: String) throws -> Data? {
    if let data = cache[key] { return data }
    let data = try storage?.data(for: key)
    cache[key] = data
    return data
  }

  /// Stores `data` under `key`.
  public func set(data: Data, for key: String) throws {
    try storage?.set(data: data, for: key)
    cache[key] = data
  }

  /// Forgets `key`.
  public func removeData(for key: String) throws {
    try storage?.removeData(for: key)
    cache[key] = nil
  }

  /// Forgets everything.
  public func reset() throws {
    try storage?.reset()
    cache = [:]
  }

  /// The UTF-8 text stored under `key`, or `nil`.
  public func string(for key: String) throws -> String? {
    try data(for: key).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Stores `string` under `key` as UTF-8 bytes.
  public func set(string: String, for key: String) throws {
    try set(data: Data(string.utf8), for: key)
  }

  /// The Boolean stored under `key`, or `nil` when missing.
  ///
  /// - Throws: `DecodingError` when the bytes under `key` are not a JSON Boolean.
  public func bool(for key: String) throws -> Bool? {
    try data(for: key).flatMap { try JSONDecoder().decode(Bool?.self, from: $0) }
  }

  /// Stores `value` under `key` as a JSON fragment.
  public func set(bool value: Bool, for key: String) throws {
    try set(data: JSONEncoder().encode(value), for: key)
  }

  /// The integer stored under `key`, or `nil` when missing.
  ///
  /// - Throws: `DecodingError` when the bytes under `key` are not a JSON integer.
  public func int(for key: String) throws -> Int? {
    try data(for: key).flatMap { try JSONDecoder().decode(Int?.self, from: $0) }
  }

  /// Stores `value` under `key` as a JSON fragment.
  public func set(int value: Int, for key: String) throws {
    try set(data: JSONEncoder().encode(value), for: key)
  }
}
