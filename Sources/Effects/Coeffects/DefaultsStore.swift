/// A key-value store of settings, as a co-effect: `UserDefaults`, made testable.
///
/// The protocol holds only what differs between the real store and the test one: reading and
/// writing a ``DefaultsValue`` under a key, ``value(for:)-(String)`` and
/// ``set(_:for:)-(DefaultsValue?,String)``. Typed access lives in the extension, through a
/// ``DefaultsKey`` that names a setting and its type once, so ``UserDefaultsStore`` and
/// ``InMemoryDefaults`` *cannot* disagree about how a value is encoded. Both kinds of key are read,
/// written and removed with the same words, `value(for:)`, `set(_:for:)` and `removeValue(for:)`:
///
/// ```swift
/// extension DefaultsKey<Bool> {
///   static var hasLaunched: Self { Self("hasLaunched") }
/// }
///
/// func isFirstLaunch(environment: Environment = .current) -> Bool {
///   (try? environment.defaults.value(for: .hasLaunched)) != true
/// }
///
/// @Test func aReturningUserIsNotOnFirstLaunch() {
///   let environment = Environment.test()
///   environment.defaults.set(true, for: .hasLaunched)
///   #expect(!isFirstLaunch(environment: environment))
/// }
///
/// // The same setting as a plain value under its name:
/// environment.defaults.set(.bool(true), for: "hasLaunched")
/// #expect(environment.defaults.value(for: "hasLaunched") == .bool(true))
/// ```
///
/// A conforming type must hand back exactly the value that was set (a `.bool` stays a `.bool`),
/// treat `nil` as removal, and be safe to use from any thread. Stores are reference-like: copies of
/// one store see the same values.
public protocol DefaultsStore: Sendable {
  /// The value stored under `key`, or `nil` when there is none.
  ///
  /// ```swift
  /// #expect(InMemoryDefaults(["theme": "dark"]).value(for: "theme") == .string("dark"))
  /// ```
  func value(for key: String) -> DefaultsValue?

  /// Stores `value` under `key`; `nil` removes the key.
  ///
  /// ```swift
  /// defaults.set("dark", for: "theme")  // a literal is a DefaultsValue: .string("dark")
  /// defaults.set(.int(count), for: "launchCount")
  /// ```
  func set(_ value: DefaultsValue?, for key: String)
}

extension DefaultsStore {
  /// Removes whatever is stored under `key`: ``set(_:for:)-(DefaultsValue?,String)`` with `nil`.
  ///
  /// ```swift
  /// defaults.removeValue(for: "theme")
  /// #expect(defaults.value(for: "theme") == nil)
  /// ```
  public func removeValue(for key: String) {
    set(nil, for: key)
  }
}
