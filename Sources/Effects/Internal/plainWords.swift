import Foundation

/// `error` as a sentence a person reads in a test failure or a log: never a raw `NSError` dump.
///
/// On Linux, `"\(CocoaError(...))"` prints `Error Domain=NSCocoaErrorDomain Code=4 "(null)"
/// UserInfo={…}`. An error bridged from `NSError` (Foundation's `CocoaError`, `POSIXError`,
/// `URLError`…) is described by its localized description instead, with the path and the
/// system's reason when the description names neither; any other error keeps its own
/// `description`.
func plainWords(_ error: any Error) -> String {
  // Not `(error as AnyObject) is NSError`: on Apple platforms every Swift error boxes as one.
  let isBridged = error is any CustomNSError || type(of: error) is NSError.Type
  if !isBridged, let error = error as? any LocalizedError, let text = error.errorDescription {
    return text
  }
  guard isBridged else { return String(describing: error) }
  let bridged = error as NSError
  if bridged.userInfo[NSLocalizedDescriptionKey] is String {
    return bridged.localizedDescription
  }
  let path = bridged.userInfo[NSFilePathErrorKey] as? String
  let reason = (bridged.userInfo[NSUnderlyingErrorKey] as? NSError).flatMap { underlying in
    underlying.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32(underlying.code))) : nil
  }
  switch (path, reason) {
  case (let path?, let reason?): return "\(path): \(reason) (\(bridged.domain) \(bridged.code))"
  case (let path?, nil): return "\(path): \(bridged.localizedDescription)"
  default: return bridged.localizedDescription
  }
}
