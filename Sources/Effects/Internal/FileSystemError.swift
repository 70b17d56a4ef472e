import Foundation

/// The `CocoaError`s both file systems throw: Foundation's domain and code, with a description that
/// names the path and says what was expected (Foundation's own text on Linux names neither).
enum FileSystemError {
  enum Operation: String {
    case read
    case write
    case remove
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
