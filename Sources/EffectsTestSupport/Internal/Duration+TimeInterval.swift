import Foundation

extension Duration {
  /// The duration in seconds, as a `TimeInterval`: how virtual time becomes a `Date`, and how a
  /// real wait is measured against one.
  var timeInterval: TimeInterval {
    let (seconds, attoseconds) = components
    return TimeInterval(seconds) + TimeInterval(attoseconds) * 1e-18
  }
}
