public import Foundation

/// The built-in ``Environment/timeZone`` co-effect.
package enum TimeZoneKey: BuiltInKey {
  package static var slot: Int { BuiltInSlot.timeZone.rawValue }
  package static let member = "timeZone"
  package static let liveValue = TimeZone.autoupdatingCurrent
  package static var testValue: TimeZone { TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0)! }
}

extension Environment {
  /// The time zone dates are shown in. Live: `TimeZone.autoupdatingCurrent`.
  public var timeZone: TimeZone {
    get { self[builtIn: TimeZoneKey.self] }
    set { self[builtIn: TimeZoneKey.self] = newValue }
  }
}
