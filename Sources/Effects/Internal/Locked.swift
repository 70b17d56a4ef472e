package import Foundation

/// A value guarded by an `NSLock`: the one place in the package where shared mutable state lives.
///
/// `Mutex` would do, but it needs macOS 15 / iOS 18, and the thread sanitizer understands `NSLock`.
/// Every read and write of `value` happens inside ``withLock(_:)``, which is what makes the
/// `@unchecked Sendable` honest.
package final class Locked<Value>: @unchecked Sendable {
  @usableFromInline let lock = NSLock()
  /// Not checked for exclusive access at run time: the lock makes every access exclusive already,
  /// and the runtime's check (a thread-local access set, searched and updated on every access)
  /// pays in the benchmark `callbacks.1e4.effects`, whose every callback takes two locks.
  @usableFromInline @exclusivity(unchecked) var value: Value

  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value.
  ///
  /// Inlinable, so that test support's hot paths (each `advance` takes the scheduler's lock a few
  /// times) specialize it instead of calling a generic function with a closure context.
  @inlinable
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
