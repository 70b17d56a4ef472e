/// A key for an app-defined co-effect stored in ``Environment``: an API client, the current user,
/// feature flags.
///
/// Declare the key with its live value (and, ideally, a test value), then expose it as a property
/// of `Environment`, the way SwiftUI environment values are declared:
///
/// ```swift
/// enum APIClientKey: CoeffectKey {
///   static let liveValue: any APIClient = LiveAPIClient()
///   static let testValue: any APIClient = FailingAPIClient()
/// }
///
/// extension Environment {
///   var apiClient: any APIClient {
///     get { self[APIClientKey.self] }
///     set { self[APIClientKey.self] = newValue }
///   }
/// }
/// ```
///
/// An environment made for tests (`Environment.test()` in `EffectsTestSupport`) answers a key it
/// was not given with `testValue`. A key that declares no `testValue` answers with `liveValue`
/// *and reports a test failure naming the key*, so a live API client never reaches a test silently.
///
/// A test environment reads `testValue` once, the first time the key is read, and keeps it: every
/// copy of that environment sees the same instance, and the next `Environment.test()` reads a fresh
/// one. So a computed `testValue` gives each test its own double, with its own state:
///
/// ```swift
/// enum CartKey: CoeffectKey {
///   static var liveValue: any CartStore { ServerCart() }
///   static var testValue: any CartStore { InMemoryCart() }  // one per test
/// }
/// ```
///
/// The library's own co-effects (`clock`, `defaults`, `fileReader`, …) are keys defined this way,
/// each with a live value and an in-memory test value.
public protocol CoeffectKey {
  /// The type of the co-effect.
  associatedtype Value: Sendable

  /// The value used in the running app.
  static var liveValue: Value { get }

  /// The value used in test environments. Optional: when a key does not declare it, reading the
  /// key in a test environment reports an issue naming the key.
  static var testValue: Value { get }
}

extension CoeffectKey {
  /// The default when a key declares no test value: the live value, flagged so that a test
  /// environment reports the read.
  public static var testValue: Value {
    TestValueProbe.markMissing()
    return liveValue
  }
}
