public import Foundation

/// Why a value could not be stored in, or read from, a ``DefaultsStore`` as the type asked for.
///
/// Thrown by ``DefaultsStore/value(for:)-(DefaultsKey<Value>)`` and ``DefaultsKey/decode(_:)`` when the key holds something
/// that is not the type asked for (a missing key is `nil`, never this error), and by
/// ``DefaultsKey/encode(_:)`` when a value cannot be encoded. Its description names the
/// key, the type, what was found and what was expected:
///
/// ```swift
/// do {
///   let profile = try environment.defaults.value(for: .profile)
/// } catch {
///   // Could not decode Profile from defaults key "profile": found the data {"name":"Blob"}, which
///   // does not decode as Profile: no value for "age"; expected Profile as JSON data.
///   logger.error("\(error)")
/// }
/// ```
public struct DefaultsCodingError: LocalizedError, CustomStringConvertible {
  /// What went wrong.
  public enum Problem: Sendable {
    /// The value could not be encoded as JSON: its `encode(to:)` threw, or encoded nothing.
    case encodingFailed(any Error)
    /// A type stored as JSON was read from a key that holds a value of another kind (its
    /// kind, such as `"bool"`), neither data nor text.
    case notJSON(found: String)
    /// The key holds data or text that does not decode as the requested type.
    case decodingFailed(any Error)
    /// A type stored as itself (`String`, `Int`, `Bool`, `Double`, `Data`, `Date`) was read from a
    /// key that holds another kind of value: `found` and `expected` are kinds of value (`"bool"`, `"int"`)
    /// (a `.bool` is never read as an `Int`, an `.int` never as a `Double`).
    case typeMismatch(found: String, expected: String)
  }

  /// The defaults key that was read or written.
  public var key: String
  /// The name of the type involved.
  package var typeName: String
  /// What went wrong.
  public var problem: Problem
  /// The value found under ``key`` when reading; `nil` when writing.
  public var found: DefaultsValue?

  /// Creates an error for `key` and the type `type`; `found` is what a read found under `key`.
  ///
  /// ```swift
  /// let error = DefaultsCodingError(
  ///   key: "launchCount", type: Int.self, problem: .typeMismatch(found: "bool", expected: "int"), found: true
  /// )
  /// ```
  package init(key: String, type: Any.Type, problem: Problem, found: DefaultsValue? = nil) {
    self.key = key
    self.typeName = String(describing: type)
    self.problem = problem
    self.found = found
  }

  /// A sentence naming the key, the type, what was found and what was expected.
  public var description: String {
    let subject = "defaults key \(String(reflecting: key))"
    switch problem {
    case .encodingFailed(let error):
      return "Could not encode \(typeName) for \(subject): \(DefaultsJSON.describe(error))."
    case .notJSON(let foundType):
      return "Could not decode \(typeName) from \(subject): found \(describeFound(typeName: foundType)); "
        + "expected \(typeName) as JSON data."
    case .decodingFailed(let error):
      return "Could not decode \(typeName) from \(subject): found \(describeFound(typeName: "data")), "
        + "which does not decode as \(typeName): \(DefaultsJSON.describe(error)); expected \(typeName) as JSON data."
    case .typeMismatch(let foundType, let expected):
      return "Could not decode \(typeName) from \(subject): found \(describeFound(typeName: foundType)); "
        + "expected \(Self.kind(expected))."
    }
  }

  /// What ``found`` holds, in words: `the string "Blob"`, `the int 7`, `the data {"a":1}`,
  /// `3 bytes of data`; `a string` when only the kind of value is known.
  private func describeFound(typeName foundType: String) -> String {
    guard let found else { return Self.kind(foundType) }
    switch found {
    case .data(let data):
      guard let text = DefaultsValue.printableText(data) else {
        return data.count == 1 ? "1 byte of data" : "\(data.count) bytes of data"
      }
      return "the data \(Self.preview(text, size: data.count))"
    case .string(let string):
      return "the string \(String(reflecting: Self.preview(string, size: nil)))"
    default:
      return "the \(found.typeName) \(Self.preview(found.description, size: nil))"
    }
  }

  /// Text longer than this many characters is cut short in a description.
  private static let previewLength = 60

  private static func preview(_ text: String, size: Int?) -> String {
    guard text.count > previewLength else { return text }
    let cut = text.prefix(previewLength) + "…"
    guard let size else { return String(cut) }
    return "\(cut) (\(size) bytes)"
  }

  /// `a string`, `an int`, `data`: a kind of value, named by its `DefaultsValue.typeName`.
  private static func kind(_ typeName: String) -> String {
    if typeName == "data" { return "data" }
    return typeName.first.map { "aeiou".contains($0) } == true ? "an \(typeName)" : "a \(typeName)"
  }
}

extension DefaultsCodingError {
  /// The same sentence as ``description``, for `localizedDescription`.
  public var errorDescription: String? { description }
}
