public import Foundation

/// Reading files, as a co-effect.
///
/// ```swift
/// func loadNumber(at path: String, environment: Environment = .current) throws -> Int? {
///   Int(try environment.fileReader.string(atPath: path).trimmingCharacters(in: .whitespacesAndNewlines))
/// }
/// ```
///
/// A conforming type must throw the errors `Foundation` throws for the same situation, so code that
/// handles them behaves the same against the live ``DiskFileSystem`` and the in-memory
/// ``InMemoryFileSystem`` (a contract test suite runs both):
/// - a missing file: `CocoaError(.fileReadNoSuchFile)` with the path in `NSFilePathErrorKey`;
/// - a directory, or a path that runs through a file: `CocoaError(.fileReadUnknown)`;
/// - a path that names no file — empty, holding NUL, or ending in `.` or `..` —
///   `CocoaError(.fileReadInvalidFileName)`, before anything is asked of the disk;
/// - in each case a `localizedDescription` naming the path and what was expected there:
///   `Could not read /fixtures/number.txt: no file exists at this path.`
///
/// Decoding text lives in the extension (``string(atPath:encoding:)``), so every reader decodes the
/// same way.
public protocol FileReader: Sendable {
  /// The contents of the file at `path`.
  func contents(atPath path: String) throws -> Data
}

extension FileReader {
  /// The contents of the file at `path`, decoded as text.
  ///
  /// - Throws: what ``contents(atPath:)`` throws, or
  ///   `CocoaError(.fileReadInapplicableStringEncoding)` naming the path and the encoding when the
  ///   bytes are not valid in `encoding`.
  public func string(atPath path: String, encoding: String.Encoding = .utf8) throws -> String {
    let data = try contents(atPath: path)
    guard let string = String(data: data, encoding: encoding) else {
      throw CocoaError(
        .fileReadInapplicableStringEncoding,
        userInfo: [
          NSFilePathErrorKey: path,
          NSLocalizedDescriptionKey:
            "The file at \(path) is not valid \(encoding) text (\(data.count) bytes); expected text in that encoding.",
        ]
      )
    }
    return string
  }
}
