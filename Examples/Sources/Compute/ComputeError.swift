/// Why ``compute(file:environment:)`` could not compute.
public enum ComputeError: Error, Equatable, CustomStringConvertible {
  /// The bundle has no resource by this name.
  case resourceNotFound(String)
  /// The resource exists but could not be read.
  case unreadable(path: String, reason: String)
  /// The file does not hold a whole number.
  case notAnInteger(path: String, contents: String)
  /// The number's square does not fit in an `Int`.
  case tooLarge(path: String, value: Int)

  /// A sentence naming the resource or path and what was expected.
  public var description: String {
    switch self {
    case .resourceNotFound(let name):
      "No resource named \"\(name)\" in the bundle; expected a text file holding a whole number."
    case .unreadable(let path, let reason):
      "Could not read \(path): \(reason)"
    case .notAnInteger(let path, let contents):
      "\(path) holds \"\(contents)\"; expected a whole number such as 123."
    case .tooLarge(let path, let value):
      "\(path) holds \(value), whose square does not fit in a 64-bit integer; expected at most 3037000499."
    }
  }
}
