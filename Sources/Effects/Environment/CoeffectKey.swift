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
/// `testValue` is read each time such a key is read: declare it with `static let` to share one
/// instance.
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
