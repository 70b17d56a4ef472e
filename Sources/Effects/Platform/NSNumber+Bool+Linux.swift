#if !canImport(Darwin)
import Foundation

extension NSNumber {
  /// Whether this number holds a `Bool` (a value `UserDefaults` read back): swift-corelibs-foundation
  /// has no `CFBoolean` type to ask, and stores a `Bool` with the Objective-C type `c` (a `char`).
  var holdsBool: Bool {
    String(cString: objCType) == "c"
  }
}
#endif
