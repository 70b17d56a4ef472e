import Effects
public import Foundation

/// Test data: JSON written and read back the same way every time, and resource files loaded from
/// a test target's bundle with errors that say what *is* there.
///
/// ```swift
/// @Test func decodesTheProfileFixture() throws {
///   let json = try Fixture.string("Fixtures/profile.json", in: .module)
///   let profile = try Fixture.decode(Profile.self, from: json)
///   #expect(profile.name == "Blob")
///   #expect(try Fixture.json(profile) == json.trimmingCharacters(in: .whitespacesAndNewlines))
/// }
/// ```
///
/// To ship resources with a test target, declare them in `Package.swift` and pass the target's own
/// `Bundle.module` (each target has its own):
///
/// ```swift
/// .testTarget(name: "AppTests", dependencies: ["App"], resources: [.copy("Fixtures")])
/// ```
public enum Fixture {
  /// `value` as compact JSON with sorted keys and unescaped slashes: the same text for the same
  /// value on every run and every platform, so it can be compared with `==` or stored as a fixture.
  ///
  /// ```swift
  /// #expect(try Fixture.json(["b": 2, "a": 1]) == #"{"a":1,"b":2}"#)
  /// ```
  ///
  /// - Throws: ``FixtureError/notEncodable(type:reason:)`` when `value` cannot be encoded (a
  ///   non-finite `Double`, for example).
  public static func json<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    do {
      return String(decoding: try encoder.encode(value), as: UTF8.self)
    } catch {
      throw FixtureError.notEncodable(type: "\(T.self)", reason: reason(error))
    }
  }

  /// A `T` decoded from the JSON text `json`.
  ///
  /// ```swift
  /// let user = try Fixture.decode(User.self, from: #"{"id": 1, "name": "Blob"}"#)
  /// ```
  ///
  /// - Throws: ``FixtureError/notDecodable(type:reason:)`` naming what was wrong and where
  ///   (`key "name" not found at .friends[0]`).
  public static func decode<T: Decodable>(_ type: T.Type, from json: String) throws -> T {
    do {
      return try JSONDecoder().decode(T.self, from: Data(json.utf8))
    } catch {
      throw FixtureError.notDecodable(type: "\(T.self)", reason: reason(error))
    }
  }

  /// The URL of the resource `name` in `bundle`.
  ///
  /// `name` is a path relative to the bundle's resources (`"Fixtures/user.json"`), or a file name
  /// that only one resource has (`"user.json"`).
  ///
  /// ```swift
  /// let url = try Fixture.url("user.json", in: .module)
  /// ```
  ///
  /// - Throws: ``FixtureError/resourceNotFound(name:directory:available:nearest:)`` listing every
  ///   resource the bundle does hold and the nearest name; ``FixtureError/ambiguousResource(name:matches:)``
  ///   when several resources have that file name.
  public static func url(_ name: String, in bundle: Bundle) throws -> URL {
    let root = bundle.resourceURL ?? bundle.bundleURL
    let available = resources(under: root)
    if available.contains(name) {
      return root.appendingPathComponent(name)
    }
    let sameFileName = available.filter { fileName(of: $0) == name }
    if sameFileName.count == 1 {
      return root.appendingPathComponent(sameFileName[0])
    }
    if sameFileName.count > 1 {
      throw FixtureError.ambiguousResource(name: name, matches: sameFileName)
    }
    let nearest = available.min { nearness(name, $0) < nearness(name, $1) }
    throw FixtureError.resourceNotFound(name: name, directory: root.path, available: available, nearest: nearest)
  }

  /// The path of the resource `name` in `bundle` (see ``url(_:in:)``).
  ///
  /// ```swift
  /// environment.bundle = FixtureBundle(["number.txt": try Fixture.path("number.txt", in: .module)])
  /// environment.fileReader = DiskFileSystem()
  /// ```
  public static func path(_ name: String, in bundle: Bundle) throws -> String {
    try url(name, in: bundle).path
  }

  /// The bytes of the resource `name` in `bundle` (see ``url(_:in:)``).
  public static func data(_ name: String, in bundle: Bundle) throws -> Data {
    try Data(contentsOf: url(name, in: bundle))
  }

  /// The text of the resource `name` in `bundle` (see ``url(_:in:)``).
  ///
  /// ```swift
  /// let html = try Fixture.string("Fixtures/page.html", in: .module)
  /// ```
  ///
  /// - Throws: what ``url(_:in:)`` throws, or the error of `FileReader.string(atPath:encoding:)`
  ///   when the bytes are not text in `encoding`.
  public static func string(_ name: String, in bundle: Bundle, encoding: String.Encoding = .utf8) throws -> String {
    try DiskFileSystem().string(atPath: path(name, in: bundle), encoding: encoding)
  }

  /// Every regular file under `root`, as sorted paths relative to it — except the bundle's own
  /// `Info.plist` and code signature, which are not resources.
  private static func resources(under root: URL) -> [String] {
    let fileManager = FileManager.default
    guard let paths = try? fileManager.subpathsOfDirectory(atPath: root.path) else { return [] }
    return paths.filter { path in
      guard path != "Info.plist", !path.hasPrefix("_CodeSignature/") else { return false }
      var isDirectory: ObjCBool = false
      let exists = fileManager.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
      return exists && !isDirectory.boolValue
    }
    .sorted()
  }

  private static func fileName(of path: String) -> Substring {
    path.split(separator: "/").last ?? Substring(path)
  }

  /// How far `name` is from the resource at `path`: by its whole path or by its file name.
  private static func nearness(_ name: String, _ path: String) -> Int {
    min(editDistance(name, path), editDistance(name, String(fileName(of: path))))
  }

  /// A coding error in words: what went wrong, and where in the JSON.
  private static func reason(_ error: any Error) -> String {
    func location(_ codingPath: [any CodingKey]) -> String {
      codingPath.isEmpty
        ? "the top level"
        : codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
    }
    switch error {
    case DecodingError.keyNotFound(let key, let context):
      return "key \"\(key.stringValue)\" not found at \(location(context.codingPath))"
    case DecodingError.valueNotFound(let type, let context):
      return "expected a \(type) at \(location(context.codingPath)), found null"
    case DecodingError.typeMismatch(let type, let context):
      return "expected a \(type) at \(location(context.codingPath)): \(context.debugDescription)"
    case DecodingError.dataCorrupted(let context):
      return "invalid data at \(location(context.codingPath)): \(context.debugDescription)"
    case EncodingError.invalidValue(let value, let context):
      return "\(value) cannot be encoded at \(location(context.codingPath)): \(context.debugDescription)"
    default:
      return String(describing: error)
    }
  }
}
