import Foundation

extension Effect: CustomStringConvertible {
  /// A stable, one-line rendering, shaped like the case that made it.
  ///
  /// Strings are quoted and escaped, properties are sorted by key, and file contents show as
  /// text when they are short UTF-8 and as a byte count otherwise:
  ///
  /// ```text
  /// print("Computed: 15129")
  /// writeFile(path: "/notes/today.txt", contents: "hi")
  /// writeFile(path: "/photo.jpg", contents: 20480 bytes)
  /// track(event: "visited", properties: ["id": "7", "source": "menu"])
  /// setDefault("dark", for: "theme")
  /// after(.milliseconds(300), [removeDefault(for: "draft")])
  /// ```
  public var description: String {
    switch self {
    case .print(let line):
      "print(\(String(reflecting: line)))"
    case .writeFile(let path, let contents):
      "writeFile(path: \(String(reflecting: path)), contents: \(Self.describe(contents)))"
    case .removeFile(let path):
      "removeFile(path: \(String(reflecting: path)))"
    case .setDefault(let value, let key):
      "setDefault(\(value), for: \(String(reflecting: key)))"
    case .removeDefault(let key):
      "removeDefault(for: \(String(reflecting: key)))"
    case .track(let event, let properties):
      "track(event: \(String(reflecting: event)), properties: \(Self.describe(properties)))"
    case .send(let request):
      "send(\(request))"
    case .after(let delay, let effects):
      "after(\(delay.literal), [\(effects.map(\.description).joined(separator: ", "))])"
    }
  }

  /// Text longer than this many characters is cut short in a description.
  private static let previewLength = 40

  private static func describe(_ data: Data) -> String {
    let bytes = data.count == 1 ? "1 byte" : "\(data.count) bytes"
    guard let text = String(data: data, encoding: .utf8) else { return bytes }
    guard text.count > previewLength else { return String(reflecting: text) }
    return "\(String(reflecting: String(text.prefix(previewLength))))… (\(bytes))"
  }

  private static func describe(_ properties: [String: String]) -> String {
    guard !properties.isEmpty else { return "[:]" }
    let entries = properties.sorted { $0.key < $1.key }
      .map { "\(String(reflecting: $0.key)): \(String(reflecting: $0.value))" }
    return "[\(entries.joined(separator: ", "))]"
  }
}
