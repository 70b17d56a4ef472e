public import Effects

/// A `ResourceBundle` that maps resource names to paths, without touching disk: the test double
/// for `Environment.bundle`.
///
/// Pair it with an `InMemoryFileSystem` holding the files at those paths:
///
/// ```swift
/// @Test func computesTheSquareOfTheBundledNumber() {
///   var environment = Environment.test()
///   environment.bundle = FixtureBundle(["number.txt": "/fixtures/number.txt"])
///   environment.fileReader = InMemoryFileSystem(["/fixtures/number.txt": "123"])
///   #expect(compute(file: "number.txt", environment: environment).value == 15129)
/// }
/// ```
///
/// It answers like `Bundle`: `path(forResource: "number", ofType: "txt")` and
/// `path(forResource: "number.txt", ofType: nil)` both find `"number.txt"` (a leading dot on the
/// type is ignored), a `nil` name finds the first resource of that type (by name), and an unknown
/// resource answers `nil`.
public struct FixtureBundle: ResourceBundle, Hashable {
  /// The resources: file name (with its extension) → full path.
  public var resources: [String: String]

  /// Creates a bundle whose resource named by each key is at the path of its value.
  public init(_ resources: [String: String]) {
    self.resources = resources
  }

  /// The path of the resource named `name` with extension `ext`, or `nil` when there is none.
  public func path(forResource name: String?, ofType ext: String?) -> String? {
    let ext = ext.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 } ?? ""
    guard let name, !name.isEmpty else {
      guard !ext.isEmpty else { return nil }
      return resources.keys.sorted().first { $0.hasSuffix("." + ext) }.flatMap { resources[$0] }
    }
    return resources[ext.isEmpty ? name : "\(name).\(ext)"]
  }
}
