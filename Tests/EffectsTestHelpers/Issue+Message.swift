package import Testing

extension Issue {
  /// The text the issue was recorded with.
  package var message: String {
    comments.map(\.rawValue).joined(separator: "\n")
  }

  /// Whether the issue says exactly `message` and points at `line` of the calling file.
  package func matches(_ message: String, line: Int, fileID: String = #fileID) -> Bool {
    self.message == message && sourceLocation?.line == line && sourceLocation?.fileID == fileID
  }
}
