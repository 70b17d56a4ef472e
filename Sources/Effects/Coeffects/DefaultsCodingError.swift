public import Foundation

/// Why a `Codable` value could not be stored in, or read from, a ``DefaultsStore``.
///
/// Its description names the key, the type, and what was found:
///
/// ```text
/// Could not decode Profile from defaults key "profile": the data is not valid JSON for Profile
/// (The data couldn't be read because it isn't in the correct format.). Expected JSON written by
/// encode(_:forKey:).
/// ```
public struct DefaultsCodingError: LocalizedError, CustomStringConvertible {
  /// What went wrong.
  public enum Problem: Sendable {
    /// The value could not be encoded as JSON.
    case encodingFailed(any Error)
    /// The key holds a value of another type (its ``DefaultsValue/typeName``), not JSON data.
    case notJSON(found: String)
    /// The key holds data that does not decode as the requested type.
    case decodingFailed(any Error)
  }

  /// The defaults key that was read or written.
  public var key: String
  /// The name of the `Codable` type involved.
  public var typeName: String
  /// What went wrong.
  public var problem: Problem

  /// Creates an error for `key` and the `Codable` type `type`.
  public init(key: String, type: Any.Type, problem: Problem) {
    self.key = key
    self.typeName = String(describing: type)
    self.problem = problem
  }

  /// A sentence naming the key, the type, and what was expected.
  public var description: String {
    switch problem {
    case .encodingFailed(let error):
      "Could not encode \(typeName) for defaults key \"\(key)\": \(error)."
    case .notJSON(let found):
      "Could not decode \(typeName) from defaults key \"\(key)\": it holds a \(found) value; "
        + "expected JSON data written by encode(_:forKey:)."
    case .decodingFailed(let error):
      "Could not decode \(typeName) from defaults key \"\(key)\": the data is not valid JSON for \(typeName) "
        + "(\(error)). Expected JSON written by encode(_:forKey:)."
    }
  }
}

extension DefaultsCodingError {
  /// The same sentence as ``description``, for `localizedDescription`.
  public var errorDescription: String? { description }
}
