#if canImport(Darwin)
import CoreFoundation
import Foundation

extension NSNumber {
  /// Whether this number holds a `Bool` (a value `UserDefaults` read back): on Darwin, `true` and
  /// `false` are bridged to the two `CFBoolean` singletons, whose type is not a number's.
  var holdsBool: Bool {
    CFGetTypeID(self) == CFBooleanGetTypeID()
  }
}
#endif
