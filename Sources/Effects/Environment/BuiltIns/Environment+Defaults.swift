import Foundation

/// The built-in ``Environment/defaults`` co-effect.
package enum DefaultsStoreKey: BuiltInKey {
  package static var slot: Int { BuiltInSlot.defaults.rawValue }
  package static let member = "defaults"
  package static let liveValue: any DefaultsStore = UserDefaultsStore()
  package static var testValue: any DefaultsStore { InMemoryDefaults() }
}

extension Environment {
  /// Settings. Live: ``UserDefaultsStore`` over `UserDefaults.standard`.
  public var defaults: any DefaultsStore {
    get { self[builtIn: DefaultsStoreKey.self] }
    set { self[builtIn: DefaultsStoreKey.self] = newValue }
  }
}
