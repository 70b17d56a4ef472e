import Foundation

/// A value guarded by an `NSLock`: the one place in the package where shared mutable state lives.
///
/// `Mutex` would do, but it needs macOS 15 / iOS 18, and the thread sanitizer understands `NSLock`.
/// Every read and write of `value` happens inside ``withLock(_:)``, which is what makes the
/// `@unchecked Sendable` honest.
package final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value.
  package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }

  /// A copy of the value, read under the lock.
  package var snapshot: Value {
    withLock { $0 }
  }
}
