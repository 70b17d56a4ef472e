import Foundation

/// The built-in ``Environment/bundle`` co-effect.
package enum BundleKey: BuiltInKey {
  package static var slot: Int { BuiltInSlot.bundle.rawValue }
  package static let member = "bundle"
  package static let liveValue: any ResourceBundle = Bundle.main
  package static var testValue: any ResourceBundle { EmptyBundle() }
}

extension Environment {
  /// Where bundled resources are. Live: `Bundle.main`.
  public var bundle: any ResourceBundle {
    get { self[builtIn: BundleKey.self] }
    set { self[builtIn: BundleKey.self] = newValue }
  }
}
