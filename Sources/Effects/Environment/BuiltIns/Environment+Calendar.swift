public import Foundation

/// The built-in ``Environment/calendar`` co-effect.
package enum CalendarKey: BuiltInKey {
  package static var slot: Int { BuiltInSlot.calendar.rawValue }
  package static let member = "calendar"
  package static let liveValue = Calendar.autoupdatingCurrent
  /// Gregorian, in UTC and `en_US_POSIX`: the same dates on every machine.
  package static var testValue: Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZoneKey.testValue
    calendar.locale = LocaleKey.testValue
    return calendar
  }
}

extension Environment {
  /// The calendar dates are computed in. Live: `Calendar.autoupdatingCurrent`.
  public var calendar: Calendar {
    get { self[builtIn: CalendarKey.self] }
    set { self[builtIn: CalendarKey.self] = newValue }
  }
}
