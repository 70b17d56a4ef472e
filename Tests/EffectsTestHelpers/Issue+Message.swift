package import Effects
package import Testing

extension Issue {
  /// The text the issue was recorded with, without the kind a report of this library ends with
  /// (``reportKind`` reads it; the library's own suites assert it on its own).
  package var message: String {
    untagged(comments.map(\.rawValue).joined(separator: "\n")).text
  }

  /// Whether the issue says exactly `message` and points at `line` of the calling file.
  package func matches(_ message: String, line: Int, fileID: String = #fileID) -> Bool {
    self.message == message && sourceLocation?.line == line && sourceLocation?.fileID == fileID
  }
}

/// `text` without the kind it ends with (`… [ReportKind.leftoverWork]`), and that kind; the text
/// as it is, and nil, when it ends with none.
package func untagged(_ text: String) -> (text: String, kind: ReportKind?) {
  guard let kind = ReportKind(reportText: text), let range = text.range(of: kind.tag, options: .backwards) else {
    return (text, nil)
  }
  var rest = text[..<range.lowerBound]
  if rest.last == " " || rest.last == "\n" { rest.removeLast() }
  return (String(rest), kind)
}
