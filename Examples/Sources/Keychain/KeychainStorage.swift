public import Foundation

/// Where a ``Keychain`` keeps its bytes: the only part that differs between the real store and a
/// test, so the only part behind a protocol (the seed's "make your mocks small").
///
/// A conforming type must answer `nil` for a key it does not hold, hand back exactly the bytes it
/// was given, and forget everything on ``reset()``.
public protocol KeychainStorage: Sendable {
  /// The bytes stored under `key`, or `nil`.
  func data(for key: String) throws -> Data?
  /// Stores `data` under `key`, replacing what was there.
  func set(data: Data, for key: String) throws
  /// Forgets `key`; forgetting a missing key is not an error.
  func removeData(for key: String) throws
  /// Forgets every key.
  func reset() throws
}
