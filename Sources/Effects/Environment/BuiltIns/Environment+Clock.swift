import Foundation

/// The built-in ``Environment/clock`` co-effect.
package enum ClockKey: BuiltInKey {
  package static var slot: Int { BuiltInSlot.clock.rawValue }
  package static let member = "clock"
  package static let liveValue: any WallClock = SystemClock()
  package static var testValue: any WallClock { FixedClock(Date(timeIntervalSinceReferenceDate: 0)) }
}

extension Environment {
  /// The current time. Live: `Date()`.
  public var clock: any WallClock {
    get { self[builtIn: ClockKey.self] }
    set { self[builtIn: ClockKey.self] = newValue }
  }
}
