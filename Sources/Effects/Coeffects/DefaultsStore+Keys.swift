extension DefaultsStore {
  /// The value stored under `key`; `nil` only when the key is missing.
  ///
  /// ```swift
  /// func greeting(environment: Environment = .current) throws -> String {
  ///   guard let profile = try environment.defaults.value(for: .profile) else { return "Welcome!" }
  ///   return "Welcome back, \(profile.name)!"
  /// }
  ///
  /// @Test func aKnownUserIsWelcomedBack() throws {
  ///   let environment = Environment.test()
  ///   environment.defaults.set(Profile(name: "Blob", age: 42), for: .profile)
  ///   #expect(try greeting(environment: environment) == "Welcome back, Blob!")
  /// }
  /// ```
  ///
  /// - Throws: ``DefaultsCodingError`` naming the key, the type, what was found and what was
  ///   expected when the key holds something that is not a `Value` (see ``DefaultsKey/decode(_:)``).
  public func value<Value>(for key: DefaultsKey<Value>) throws -> Value? {
    guard let stored = value(for: key.name) else { return nil }
    return try key.decode(stored)
  }

  /// Stores `value` under `key`: as itself for `String`, `Int`, `Bool`, `Double`, `Data` and
  /// `Date`, as JSON data otherwise (see ``DefaultsKey``).
  ///
  /// ```swift
  /// environment.defaults.set(Profile(name: "Blob", age: 42), for: .profile)
  /// environment.defaults.set("dark", for: .theme)  // UserDefaults holds the string "dark"
  /// ```
  ///
  /// Writing does not throw: a value whose `Encodable` conformance is sound always encodes
  /// (non-finite numbers included). A conformance that throws, or encodes nothing, is a bug in the
  /// type, named with the key, the type and the error: in a test, the test fails at this call and
  /// nothing is stored; in an app, the program stops, like a failed `try!`. A type that throws on
  /// purpose encodes with ``DefaultsKey/encode(_:)`` first:
  /// `set(try key.encode(value), for: key.name)`.
  public func set<Value>(_ value: Value, for key: DefaultsKey<Value>) {
    guard let stored = key.encodeOrReport(value, in: "DefaultsStore.set(_:for:)") else { return }
    set(stored, for: key.name)
  }

  /// Removes whatever is stored under `key`.
  ///
  /// ```swift
  /// environment.defaults.removeValue(for: .profile)
  /// #expect(try environment.defaults.value(for: .profile) == nil)
  /// ```
  public func removeValue<Value>(for key: DefaultsKey<Value>) {
    removeValue(for: key.name)
  }
}
