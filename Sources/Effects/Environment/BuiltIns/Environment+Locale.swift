public import Foundation

/// The built-in ``Environment/locale`` co-effect.
package enum LocaleKey: BuiltInKey {
  package static var slot: Int { BuiltInSlot.locale.rawValue }
  package static let member = "locale"
  package static let liveValue = Locale.autoupdatingCurrent
  package static var testValue: Locale { Locale(identifier: "en_US_POSIX") }
}

extension Environment {
  /// The locale text is formatted in. Live: `Locale.autoupdatingCurrent`.
  public var locale: Locale {
    get { self[builtIn: LocaleKey.self] }
    set { self[builtIn: LocaleKey.self] = newValue }
  }
}
