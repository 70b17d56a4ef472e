import Foundation

/// Settings held in memory: the in-core double for `defaults`.
///
/// It is a reference type, so copies share values: give it to the code under test and inspect
/// ``values`` afterwards.
///
/// ```swift
/// let defaults = InMemoryDefaults(["onboarded": true])
/// defaults.set("dark", for: "theme")
/// #expect(defaults.values == ["onboarded": true, "theme": "dark"])
/// ```
///
/// It passes the same contract test suite as ``UserDefaultsStore``: plain values, typed keys,
/// `Codable` round trips and their errors behave identically.
public final class InMemoryDefaults: DefaultsStore {
  private let storage: Locked<[String: DefaultsValue]>

  /// Creates a store holding `values`.
  public init(_ values: [String: DefaultsValue] = [:]) {
    storage = Locked(values)
  }

  /// Every stored value, by key. Compare it with `==` to assert what code wrote.
  public var values: [String: DefaultsValue] {
    storage.snapshot
  }

  /// Removes every value.
  public func clear() {
    storage.withLock { $0.removeAll() }
  }

  /// The value stored under `key`, or `nil`.
  public func value(for key: String) -> DefaultsValue? {
    storage.withLock { $0[key] }
  }

  /// Stores `value` under `key`; `nil` removes the key.
  public func set(_ value: DefaultsValue?, for key: String) {
    storage.withLock { $0[key] = value }
  }
}
