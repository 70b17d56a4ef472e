/// A key-value store of settings, as a co-effect: `UserDefaults`, made testable.
///
/// The protocol holds only what differs between the real store and the test one: reading and
/// writing a ``DefaultsValue``. Everything typed — `string(forKey:)`, `set(_:forKey:)`,
/// `encode(_:forKey:)`, `decode(_:forKey:)`, and `value(for:)`/`set(_:for:)` with a ``DefaultsKey``
/// — lives in the extension, so ``UserDefaultsStore`` and ``InMemoryDefaults`` *cannot* disagree
/// about how a value is encoded.
///
/// ```swift
/// func isFirstLaunch(environment: Environment = .current) -> Bool {
///   environment.defaults.bool(forKey: "hasLaunched") != true
/// }
///
/// @Test func aReturningUserIsNotOnFirstLaunch() {
///   var environment = Environment.test()
///   environment.defaults.set(true, forKey: "hasLaunched")
///   #expect(!isFirstLaunch(environment: environment))
/// }
/// ```
///
/// A conforming type must hand back exactly the value that was set (a `.bool` stays a `.bool`),
/// treat `nil` as removal, and be safe to use from any thread. Stores are reference-like: copies of
/// one store see the same values.
public protocol DefaultsStore: Sendable {
  /// The value stored under `key`, or `nil` when there is none.
  func value(forKey key: String) -> DefaultsValue?

  /// Stores `value` under `key`; `nil` removes the key.
  func setValue(_ value: DefaultsValue?, forKey key: String)
}
