/// Tells whether a ``CoeffectKey`` declares its own `testValue`.
///
/// The protocol's default `testValue` marks the probe bound around the read; a key's own
/// `testValue` does not. Reading through ``read(_:)`` answers the value and whether it was the
/// default.
enum TestValueProbe {
  @TaskLocal private static var missing: Locked<Bool>?

  static func markMissing() {
    missing?.withLock { $0 = true }
  }

  /// The key's test value, and whether the key declares one.
  static func read<Key: CoeffectKey>(_ key: Key.Type) -> (value: Key.Value, isDeclared: Bool) {
    let flag = Locked(false)
    let value = $missing.withValue(flag) { Key.testValue }
    return (value, !flag.snapshot)
  }
}
