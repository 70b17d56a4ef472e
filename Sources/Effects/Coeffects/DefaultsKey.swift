/// The name of a setting together with the type of its value: read, write and describe settings
/// without spelling the key or the encoding twice.
///
/// Declare each key once, as a static member, so that call sites name it with a leading dot:
///
/// ```swift
/// struct Profile: Codable, Equatable {
///   var name: String
///   var age: Int
/// }
///
/// extension DefaultsKey<Profile> {
///   static var profile: Self { Self("profile") }
/// }
///
/// extension DefaultsKey<String> {
///   static var theme: Self { Self("theme") }
/// }
/// ```
///
/// Read with ``DefaultsStore/value(for:)-(DefaultsKey<Value>)``, write with
/// ``DefaultsStore/set(_:for:)-(Value,DefaultsKey<Value>)``, and in a decision describe the write as an effect,
/// ``Effect/setDefault(_:for:)-type.method``:
///
/// ```swift
/// func rename(to name: String, environment: Environment = .current) throws -> Outcome<Profile, Effect> {
///   var profile = try environment.defaults.value(for: .profile) ?? Profile(name: "", age: 0)
///   profile.name = name
///   return Outcome(value: profile, effects: [.setDefault(profile, for: .profile)])
/// }
///
/// @Test func renamingStoresTheNewName() throws {
///   let environment = Environment.test()
///   environment.defaults.set(Profile(name: "Blob", age: 42), for: .profile)
///   assertEffects(
///     of: try rename(to: "Blob Jr.", environment: environment),
///     [.setDefault(Profile(name: "Blob Jr.", age: 42), for: .profile)]
///   )
/// }
/// ```
///
/// The key is a computed `static var` because Swift has no stored static properties in generic
/// types (`static let` does not compile in `extension DefaultsKey<Profile>`); a key is only a name,
/// so making it on each use costs nothing. Keys kept as constants of an app's own type work too:
/// `enum Keys { static let profile = DefaultsKey<Profile>("profile") }`, used as `Keys.profile`.
///
/// ## How values are stored
///
/// `String`, `Int`, `Bool`, `Double`, `Data` and `Date` are stored as themselves — `.string`,
/// `.int`, `.bool`, `.double`, `.data`, `.date` — so `UserDefaults` holds a real string or number
/// that other code (`@AppStorage`, a widget, a settings bundle) reads too. Every other type, arrays,
/// enums, `Float` and `Int64` included, is stored as JSON `.data` with sorted keys, so equal values
/// give equal bytes and equal effects. The choice is made from `Value` when the value is encoded,
/// so a key made in generic code stores a `String` as a `.string` as well. ``encode(_:)`` and
/// ``decode(_:)`` are that choice, and the only place it is made. Declare keys with the
/// non-optional type: a missing key already reads as `nil`, and `DefaultsKey<String?>` would be
/// stored as JSON.
///
/// ## Reading what is there
///
/// A missing key reads as `nil`. Anything else that is not a `Value` — a `.string("Blob")` where
/// JSON for a `Profile` was expected, JSON of another shape, a `.bool` under an `Int` key — throws
/// a ``DefaultsCodingError`` naming the key, the type, what was found and what was expected; it
/// never reads as `nil`:
///
/// ```text
/// Could not decode Profile from defaults key "profile": found the string "Blob", which does not
/// decode as Profile: the given data was not valid JSON; expected Profile as JSON data.
/// ```
///
/// A key of a type stored as JSON also reads JSON text stored as a `.string`.
public struct DefaultsKey<Value: Codable>: Hashable, Sendable {
  /// The name the value is stored under: the key of ``DefaultsStore/value(for:)-(String)``.
  ///
  /// ```swift
  /// #expect(DefaultsKey<Profile>.profile.name == "profile")
  /// ```
  public let name: String

  /// A key for the values of type `Value` stored under `name`.
  ///
  /// ```swift
  /// extension DefaultsKey<Int> {
  ///   static var launchCount: Self { Self("launchCount") }
  /// }
  /// ```
  public init(_ name: String) {
    self.name = name
  }

  /// `value` as it is stored under this key: itself for the plain types, JSON data otherwise.
  ///
  /// ``DefaultsStore/set(_:for:)-(Value,DefaultsKey<Value>)`` and ``Effect/setDefault(_:for:)-type.method`` do not throw, because a value
  /// with a sound `Encodable` conformance always encodes: when this throws there, a test fails at
  /// the call, and an app stops. A type whose conformance throws on purpose (to reject invalid
  /// values) encodes here, and handles the error:
  ///
  /// ```swift
  /// let key = DefaultsKey<Invoice>.draft
  /// let effect = Effect.setDefault(try key.encode(invoice), for: key.name)
  ///
  /// #expect(try DefaultsKey<String>.theme.encode("dark") == .string("dark"))
  /// ```
  ///
  /// Non-finite numbers are written as the strings `"NaN"`, `"+Infinity"` and `"-Infinity"`, and
  /// read back as numbers, so they do not make encoding fail.
  ///
  /// - Throws: ``DefaultsCodingError`` when `Value`'s `encode(to:)` throws, or encodes nothing.
  public func encode(_ value: Value) throws -> DefaultsValue {
    if Value.self is any PlainDefaultsValue.Type, let plain = value as? any PlainDefaultsValue {
      return plain.defaultsValue
    }
    do {
      return .data(try DefaultsJSON.encode(value))
    } catch {
      throw DefaultsCodingError(key: name, type: Value.self, problem: .encodingFailed(error))
    }
  }

  /// The `Value` that `stored` holds, read the way ``encode(_:)`` writes it.
  ///
  /// ```swift
  /// #expect(try DefaultsKey<Int>.launchCount.decode(.int(3)) == 3)
  /// #expect(throws: DefaultsCodingError.self) { try DefaultsKey<Int>.launchCount.decode(.bool(true)) }
  /// ```
  ///
  /// - Throws: ``DefaultsCodingError`` when `stored` is not a `Value`: a plain type stored as
  ///   another kind of value, a JSON type stored as neither data nor text, or data or text that
  ///   does not decode as `Value`. Its description names the key, the type, and what was found.
  public func decode(_ stored: DefaultsValue) throws -> Value {
    if let plainType = Value.self as? any PlainDefaultsValue.Type {
      guard let value = plainType.init(defaultsValue: stored) else {
        throw DefaultsCodingError(
          key: name,
          type: Value.self,
          problem: .typeMismatch(found: stored.typeName, expected: plainType.defaultsTypeName),
          found: stored
        )
      }
      // `plainType` is `Value.self`, so the value it made is a `Value`.
      return value as! Value
    }
    return try DefaultsJSON.value(Value.self, from: stored, key: name)
  }
}

extension DefaultsKey {
  /// `value` as it is stored under this key; nil when `Value`'s `Encodable` conformance fails.
  ///
  /// That failure is a bug in the type, named with the caller, the key, the type and the error. In
  /// a process that runs tests it fails the running test, at the line that asked, and the process
  /// goes on (nothing is stored); in an app it stops the program, like a failed `try!`.
  func encodeOrReport(
    _ value: Value,
    in caller: String,
    reporter: (any TestIssueReporting.Type)? = TestSupportLink.reporter
  ) -> DefaultsValue? {
    do {
      return try encode(value)
    } catch {
      let message =
        "\(caller) stored nothing: \(error) A sound Encodable conformance never fails; to handle this error, "
        + "encode with DefaultsKey.encode(_:), which throws."
      // `fatalError`, not `preconditionFailure`: the message must survive release builds.
      guard let reporter else { fatalError(message) }
      reporter.report(message, kind: .invalidArgument, at: nil)
      return nil
    }
  }
}
