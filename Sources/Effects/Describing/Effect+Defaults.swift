extension Effect {
  /// Stores `value` under a typed key: the ``setDefault(_:for:)-enum.case`` that
  /// ``DefaultsStore/set(_:for:)-(Value,DefaultsKey<Value>)`` would perform, described instead of performed.
  ///
  /// ```swift
  /// func finishOnboarding(_ profile: Profile) -> Outcome<Void, Effect> {
  ///   Outcome(value: (), effects: [.setDefault(profile, for: .profile), .setDefault(true, for: .onboarded)])
  /// }
  ///
  /// @Test func finishingOnboardingStoresTheProfile() {
  ///   assertEffects(
  ///     of: finishOnboarding(Profile(name: "Blob", age: 42)),
  ///     [.setDefault(Profile(name: "Blob", age: 42), for: .profile), .setDefault(true, for: .onboarded)]
  ///   )
  /// }
  /// ```
  ///
  /// The value is encoded now, as ``DefaultsKey/encode(_:)`` stores it: `String`, `Int`, `Bool`,
  /// `Double`, `Data` and `Date` as themselves, `.setDefault(.bool(true), for: "onboarded")`;
  /// other types as JSON with sorted keys, `.setDefault(.data(json), for: "profile")`. Equal
  /// values make equal effects, so tests compare them with `==`, and the effect reads back through
  /// ``DefaultsStore/value(for:)-(DefaultsKey<Value>)`` once an ``Interpreter`` has performed it.
  ///
  /// A decision does not need `try`: a value whose `Encodable` conformance is sound always encodes.
  /// A conformance that throws, or encodes nothing, is a bug in the type, named with the key, the
  /// type and the error: in a test, the test fails at this call and the effect stores a string that
  /// says so (visible in an effects diff); in an app, the program stops, like a failed `try!`. A type that
  /// throws on purpose encodes with ``DefaultsKey/encode(_:)``, which throws, and builds the case:
  /// `.setDefault(try key.encode(value), for: key.name)`.
  public static func setDefault<Value>(_ value: Value, for key: DefaultsKey<Value>) -> Effect {
    .setDefault(
      key.encodeOrReport(value, in: "Effect.setDefault(_:for:)")
        ?? .string("unencodable \(Value.self): see the issue reported where this effect was made"),
      for: key.name
    )
  }

  /// Removes the value of a typed key: ``removeDefault(for:)-enum.case`` with the key's name.
  ///
  /// ```swift
  /// func signOut() -> Outcome<Void, Effect> {
  ///   Outcome(value: (), effects: [.removeDefault(for: .profile)])
  /// }
  ///
  /// #expect(Effect.removeDefault(for: DefaultsKey<Profile>.profile) == .removeDefault(for: "profile"))
  /// ```
  public static func removeDefault<Value>(for key: DefaultsKey<Value>) -> Effect {
    .removeDefault(for: key.name)
  }
}
