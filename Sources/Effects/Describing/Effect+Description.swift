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
  /// after(.milliseconds(300), [removeDefault(key: "draft")])
  /// ```
  public var description: String {
    switch self {
    case .print(let line):
      "print(\(String(reflecting: line)))"
    case .writeFile(let path, let contents):
      "writeFile(path: \(String(reflecting: path)), contents: \(Self.describe(contents)))"
    case .removeFile(let path):
      "removeFile(path: \(String(reflecting: path)))"
    case .setDefault(let key, let value):
      "setDefault(key: \(String(reflecting: key)), value: \(value))"
    case .removeDefault(let key):
      "removeDefault(key: \(String(reflecting: key)))"
    case .track(let event, let properties):
      "track(event: \(String(reflecting: event)), properties: \(Self.describe(properties)))"
    case .after(let delay, let effects):
      "after(\(Self.describe(delay)), [\(effects.map(\.description).joined(separator: ", "))])"
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

  /// `.seconds(3)`, `.milliseconds(300)`, …: the largest unit that states the duration exactly.
  private static func describe(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    if attoseconds == 0 { return ".seconds(\(seconds))" }
    let units: [(name: String, attoseconds: Int64, perSecond: Int64)] = [
      ("milliseconds", 1_000_000_000_000_000, 1_000),
      ("microseconds", 1_000_000_000_000, 1_000_000),
      ("nanoseconds", 1_000_000_000, 1_000_000_000),
    ]
    for unit in units where attoseconds % unit.attoseconds == 0 {
      let (whole, overflowed) = seconds.multipliedReportingOverflow(by: unit.perSecond)
      let (total, overflowedAgain) = whole.addingReportingOverflow(attoseconds / unit.attoseconds)
      if !overflowed && !overflowedAgain { return ".\(unit.name)(\(total))" }
    }
    return "Duration(secondsComponent: \(seconds), attosecondsComponent: \(attoseconds))"
  }
}
