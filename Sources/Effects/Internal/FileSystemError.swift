import Foundation

/// The `CocoaError`s both file systems throw: Foundation's domain and code, with a description that
/// names the path and says what was expected (Foundation's own text on Linux names neither).
enum FileSystemError {
  enum Operation: String {
    case read
    case write
    case remove
  }

  /// The error for a path that names no file on any file system, or nil for any other path. Both
  /// file systems check it before anything else, so they agree on it, and the disk is never asked:
  /// - an empty path;
  /// - a path holding NUL, where the system would end it (Foundation would write `%00` instead);
  /// - a path whose last component is `.` or `..`, which names a directory by its place: never a
  ///   file to read or write, and a directory `rm` refuses to remove (removing `dir/..` would take
  ///   the parent with it).
  ///
  /// Reading throws `CocoaError(.fileReadInvalidFileName)`, writing and removing
  /// `CocoaError(.fileWriteInvalidFileName)`, naming the path (a NUL written `\0`, the empty path
  /// `""`) and the problem.
  static func invalidPath(_ path: String, _ operation: Operation) -> CocoaError? {
    let reason: String
    let posix: Int32
    if path.isEmpty {
      (reason, posix) = ("the path is empty; expected the path of a file", ENOENT)
    } else if path.utf8.contains(0) {
      (reason, posix) = (
        #"a path cannot contain NUL (\0), where the system would end it; expected one without"#, EINVAL
      )
    } else if let last = lastComponent(of: path), last == "." || last == ".." {
      if operation == .remove {
        reason = """
          its last component, "\(last)", names a directory by its place, which is refused (as rm refuses it); \
          expected the directory's own path
          """
        posix = EINVAL
      } else {
        reason = #"its last component, "\#(last)", names a directory, not a file; expected the path of a file"#
        posix = EISDIR
      }
    } else {
      return nil
    }
    let shown = path.isEmpty ? #""""# : path.replacing("\u{0}", with: #"\0"#)
    return CocoaError(
      operation == .read ? .fileReadInvalidFileName : .fileWriteInvalidFileName,
      userInfo: [
        NSFilePathErrorKey: path,
        NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(posix)),
        NSLocalizedDescriptionKey: "Could not \(operation.rawValue) \(shown): \(reason).",
      ]
    )
  }

  /// The last component of `path` after any trailing slashes (`..` for `/tmp/..//`), compared by
  /// its bytes; nil for `/`.
  private static func lastComponent(of path: String) -> String? {
    let slash = UInt8(ascii: "/")
    var bytes = Array(path.utf8)
    while bytes.last == slash { bytes.removeLast() }
    guard !bytes.isEmpty else { return nil }
    let start = bytes.lastIndex(of: slash).map { $0 + 1 } ?? 0
    return String(decoding: bytes[start...], as: UTF8.self)
  }

  static func make(_ code: CocoaError.Code, _ operation: Operation, path: String, posix: Int32) -> CocoaError {
    CocoaError(
      code,
      userInfo: [
        NSFilePathErrorKey: path,
        NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(posix)),
        NSLocalizedDescriptionKey: "Could not \(operation.rawValue) \(path): \(reason(operation, posix: posix)).",
      ]
    )
  }

  /// `error` with the same domain, code and details, and a description naming the path; errors
  /// that carry no path or are not `CocoaError`s pass through unchanged.
  ///
  /// With `replacingPath`, the error names `path` even where it carried another (the temporary file
  /// of an atomic write).
  static func describing(
    _ error: any Error,
    _ operation: Operation,
    path: String,
    replacingPath: Bool = false
  ) -> any Error {
    guard let error = error as? CocoaError else { return error }
    let underlying = (error.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
    let posix =
      underlying.flatMap { $0.domain == NSPOSIXErrorDomain ? Int32($0.code) : nil }
      ?? ([.fileReadNoSuchFile, .fileNoSuchFile].contains(error.code) ? ENOENT : nil)
    var userInfo = error.userInfo
    userInfo[NSFilePathErrorKey] = replacingPath ? path : userInfo[NSFilePathErrorKey] ?? path
    if replacingPath { userInfo[NSURLErrorKey] = nil }
    userInfo[NSLocalizedDescriptionKey] =
      "Could not \(operation.rawValue) \(path): \(posix.map { reason(operation, posix: $0) } ?? "\(error.code)")."
    return CocoaError(error.code, userInfo: userInfo)
  }

  private static func reason(_ operation: Operation, posix: Int32) -> String {
    switch posix {
    case ENOENT: operation == .read ? "no file exists at this path" : "nothing exists at this path"
    case EISDIR: "it is a directory; expected a file"
    case ENOTDIR: "a component of the path is a file; expected a directory"
    case EACCES, EPERM: "permission denied"
    default: String(cString: strerror(posix))
    }
  }
}
