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
          Fixture found no resource named "\(name)": the bundle at \(directory) holds no resources. Declare them \
          on the test target in Package.swift (for example resources: [.copy("Fixtures")]) and pass that target's \
          Bundle.module.
          """
      }
      let fix = nearest.map { "Pass one of these names; the nearest is \"\($0)\"." } ?? "Pass one of these names."
      return """
        Fixture found no resource named "\(name)" in the bundle at \(directory), which holds \
        \(available.count == 1 ? "1 resource" : "\(available.count) resources"):\(renderList(available))
        \(fix)
        """
    case .ambiguousResource(let name, let matches):
      return """
        Fixture found \(matches.count) resources named "\(name)":\(renderList(matches))
        Pass the path of the one you mean.
        """
    case .notEncodable(let type, let reason):
      return "Fixture.json(_:) cannot encode the \(type) as JSON: \(reason)."
    case .notDecodable(let type, let reason):
      return "Fixture.decode(_:from:) cannot decode a \(type) from the JSON: \(reason)."
    }
  }
}
