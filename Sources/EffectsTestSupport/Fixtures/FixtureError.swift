/// Why a ``Fixture`` could not be loaded, encoded or decoded. Its description says what was wrong
/// and what would be right.
public enum FixtureError: Error, Equatable, CustomStringConvertible {
  /// No resource is named `name`. `available` lists every resource the bundle holds (relative to
  /// `directory`); `nearest` is the one whose name is closest, if there is any.
  case resourceNotFound(name: String, directory: String, available: [String], nearest: String?)
  /// Several resources have the file name `name`; pass one of their paths instead.
  case ambiguousResource(name: String, matches: [String])
  /// A value of `type` could not be encoded as JSON.
  case notEncodable(type: String, reason: String)
  /// The JSON could not be decoded as `type`.
  case notDecodable(type: String, reason: String)

  /// What was wrong, in words.
  public var description: String {
    switch self {
    case .resourceNotFound(let name, let directory, let available, let nearest):
      guard !available.isEmpty else {
        return """
          No resource named "\(name)": the bundle at \(directory) holds no resources. Declare them on the test \
          target in Package.swift (for example resources: [.copy("Fixtures")]) and pass that target's \
          Bundle.module.
          """
      }
      let suggestion = nearest.map { " Did you mean \"\($0)\"?" } ?? ""
      let list = available.map { "\n  \($0)" }.joined()
      return """
        No resource named "\(name)" in the bundle at \(directory).\(suggestion) It holds \
        \(available.count == 1 ? "1 resource" : "\(available.count) resources"):\(list)
        """
    case .ambiguousResource(let name, let matches):
      let list = matches.map { "\n  \($0)" }.joined()
      return """
        "\(name)" names \(matches.count) resources; pass the path of the one you mean:\(list)
        """
    case .notEncodable(let type, let reason):
      return "Cannot encode the \(type) as JSON: \(reason)."
    case .notDecodable(let type, let reason):
      return "Cannot decode a \(type) from the JSON: \(reason)."
    }
  }
}
