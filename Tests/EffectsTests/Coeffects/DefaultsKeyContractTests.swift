import Effects
import EffectsTestSupport
import Foundation
import Testing

/// The typed-key half of the defaults contract: every check runs against `UserDefaults` (on a
/// private suite) and the in-memory double.
@Suite("DefaultsStore contract: typed keys")
struct DefaultsKeyContractTests {
  // MARK: Round trips

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func everyPlainTypeReadsBackAndIsStoredAsItself(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      let date = Date(timeIntervalSince1970: 1_700_000_000.5)
      store.set("dark", for: .theme)
      store.set(42, for: .launchCount)
      store.set(true, for: .onboarded)
      store.set(0.75, for: .volume)
      store.set(Data([0xFF, 0x00, 0x7F]), for: .avatar)
      store.set(date, for: .lastSync)

      #expect(try store.value(for: .theme) == "dark")
      #expect(try store.value(for: .launchCount) == 42)
      #expect(try store.value(for: .onboarded) == true)
      #expect(try store.value(for: .volume) == 0.75)
      #expect(try store.value(for: .avatar) == Data([0xFF, 0x00, 0x7F]))
      #expect(try store.value(for: .lastSync) == date)

      #expect(store.value(for: "theme") == .string("dark"))
      #expect(store.value(for: "launchCount") == .int(42))
      #expect(store.value(for: "onboarded") == .bool(true))
      #expect(store.value(for: "volume") == .double(0.75))
      #expect(store.value(for: "avatar") == .data(Data([0xFF, 0x00, 0x7F])))
      #expect(store.value(for: "lastSync") == .date(date))
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func falseZeroAndEmptyValuesAreValuesNotMissingKeys(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      store.set(false, for: .onboarded)
      store.set(0, for: .launchCount)
      store.set("", for: .theme)
      store.set(Data(), for: .avatar)
      #expect(try store.value(for: .onboarded) == false)
      #expect(try store.value(for: .launchCount) == 0)
      #expect(try store.value(for: .theme) == "")
      #expect(try store.value(for: .avatar) == Data())
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func aCodableValueReadsBackAndIsStoredAsSortedJSON(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      store.set(Profile(name: "Blob", age: 42), for: .profile)
      #expect(try store.value(for: .profile) == Profile(name: "Blob", age: 42))
      #expect(store.value(for: "profile") == .data(Data(#"{"age":42,"name":"Blob"}"#.utf8)))
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func otherCodableTypesReadBackAsJSON(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      let appearance = DefaultsKey<Theme>.appearance
      let tags = DefaultsKey<[String]>("tags")
      let ratio = DefaultsKey<Float>("ratio")
      let tally = DefaultsKey<Tally>("tally")
      store.set(.dark, for: appearance)
      store.set(["a", "b"], for: tags)
      store.set(Float(1.5), for: ratio)
      store.set(Tally(counts: ["x": 1, "y": 2]), for: tally)

      #expect(try store.value(for: appearance) == .dark)
      #expect(try store.value(for: tags) == ["a", "b"])
      #expect(try store.value(for: ratio) == 1.5)
      #expect(try store.value(for: tally) == Tally(counts: ["x": 1, "y": 2]))
      #expect(store.value(for: "appearance") == .data(Data(#""dark""#.utf8)))
      #expect(store.value(for: "tags") == .data(Data(#"["a","b"]"#.utf8)))
      #expect(store.value(for: "ratio") == .data(Data("1.5".utf8)))
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func nonFiniteNumbersReadBack(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      let key = DefaultsKey<[Reading]>("readings")
      store.set([Reading(value: .nan), Reading(value: .infinity), Reading(value: -.infinity)], for: key)
      let readings = try #require(try store.value(for: key)).map(\.value)
      #expect(readings.count == 3)
      #expect(readings.first?.isNaN == true)
      #expect(readings.dropFirst().elementsEqual([.infinity, -.infinity]))
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func jsonTextStoredAsAStringIsReadLikeJSONData(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      store.set(.string(#"{"name": "Blob", "age": 42}"#), for: "profile")
      #expect(try store.value(for: .profile) == Profile(name: "Blob", age: 42))
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func settingAgainReplacesTheValue(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      store.set(Profile(name: "Blob", age: 42), for: .profile)
      store.set(Profile(name: "Blob", age: 43), for: .profile)
      #expect(try store.value(for: .profile) == Profile(name: "Blob", age: 43))
    }
  }

  // MARK: Missing keys

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func aMissingKeyReadsAsNilForEveryKindOfKey(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      #expect(try store.value(for: .profile) == nil)
      #expect(try store.value(for: .appearance) == nil)
      #expect(try store.value(for: .theme) == nil)
      #expect(try store.value(for: .launchCount) == nil)
      #expect(try store.value(for: .onboarded) == nil)
      #expect(try store.value(for: .volume) == nil)
      #expect(try store.value(for: .avatar) == nil)
      #expect(try store.value(for: .lastSync) == nil)
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func removingATypedKeyLeavesNothingUnderIt(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      store.set(Profile(name: "Blob", age: 42), for: .profile)
      store.set("dark", for: .theme)
      store.removeValue(for: .profile)
      store.removeValue(for: .launchCount)  // never set: nothing happens
      #expect(try store.value(for: .profile) == nil)
      #expect(store.value(for: "profile") == nil)
      #expect(try store.value(for: .theme) == "dark", "other keys stay")
    }
  }

  // MARK: Values that are not the key's type

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func textThatIsNotJSONThrowsNamingWhatWasFound(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      store.set(.string("Blob"), for: "profile")
      let error = try #require(throws: DefaultsCodingError.self) { try store.value(for: .profile) }
      #expect(
        error.description
          == #"Could not decode Profile from defaults key "profile": found the string "Blob", which does not "#
          + "decode as Profile: the given data was not valid JSON; expected Profile as JSON data."
      )
      #expect(error.key == "profile")
      #expect(error.typeName == "Profile")
      #expect(error.found == .string("Blob"))
      guard case .decodingFailed(let underlying) = error.problem else {
        Issue.record("expected .decodingFailed, got \(error.problem)")
        return
      }
      #expect(underlying is DecodingError)
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func dataThatIsNotJSONThrowsNamingWhatWasFound(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      store.set(.data(Data("{not json".utf8)), for: "profile")
      let error = try #require(throws: DefaultsCodingError.self) { try store.value(for: .profile) }
      #expect(error.key == "profile")
      #expect(
        error.description
          == #"Could not decode Profile from defaults key "profile": found the data {not json, which does not "#
          + "decode as Profile: the given data was not valid JSON; expected Profile as JSON data."
      )
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func jsonTextOfTheWrongShapeThrowsNamingTheField(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      store.set(.string(#"{"name": "Blob"}"#), for: "profile")
      let error = try #require(throws: DefaultsCodingError.self) { try store.value(for: .profile) }
      #expect(
        error.localizedDescription
          == #"Could not decode Profile from defaults key "profile": found the string "{\"name\": \"Blob\"}", "#
          + #"which does not decode as Profile: no value for "age"; expected Profile as JSON data."#
      )
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func jsonMissingAFieldThrowsNamingTheField(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      store.set(.data(Data(#"{"name":"Blob"}"#.utf8)), for: "profile")
      let error = try #require(throws: DefaultsCodingError.self) { try store.value(for: .profile) }
      #expect(
        error.description
          == #"Could not decode Profile from defaults key "profile": found the data {"name":"Blob"}, "#
          + #"which does not decode as Profile: no value for "age"; expected Profile as JSON data."#
      )
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func jsonWithAFieldOfTheWrongTypeThrowsNamingTheField(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      store.set(.data(Data(#"{"age":"old","name":"Blob"}"#.utf8)), for: "profile")
      let error = try #require(throws: DefaultsCodingError.self) { try store.value(for: .profile) }
      #expect(
        error.description
          == #"Could not decode Profile from defaults key "profile": found the data {"age":"old","name":"Blob"}, "#
          + #"which does not decode as Profile: at "age": expected to decode Int but found a string instead; "#
          + "expected Profile as JSON data."
      )
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func aValueThatIsNeitherDataNorTextThrowsForAJSONKey(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      store.set(.int(7), for: "profile")
      store.set(["dark"], for: "appearance")
      let profileError = try #require(throws: DefaultsCodingError.self) { try store.value(for: .profile) }
      #expect(
        profileError.description
          == #"Could not decode Profile from defaults key "profile": found the int 7; expected Profile as JSON data."#
      )
      guard case .notJSON(found: "int") = profileError.problem else {
        Issue.record("expected .notJSON(found: \"int\"), got \(profileError.problem)")
        return
      }
      let themeError = try #require(throws: DefaultsCodingError.self) { try store.value(for: .appearance) }
      #expect(
        themeError.description
          == #"Could not decode Theme from defaults key "appearance": found the array ["dark"]; "#
          + "expected Theme as JSON data."
      )
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func aRawValueStoredByOtherCodeIsNotReadAsAnEnumStoredAsJSON(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      store.set("dark", for: "appearance")  // what `@AppStorage` writes for a String enum
      let error = try #require(throws: DefaultsCodingError.self) { try store.value(for: .appearance) }
      #expect(
        error.description
          == #"Could not decode Theme from defaults key "appearance": found the string "dark", which does not "#
          + "decode as Theme: the given data was not valid JSON; expected Theme as JSON data."
      )
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func binaryDataUnderAJSONKeyThrowsNamingItsSize(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      store.set(.data(Data([0xFF, 0xFE, 0x00])), for: "profile")
      let error = try #require(throws: DefaultsCodingError.self) { try store.value(for: .profile) }
      #expect(
        error.description.hasPrefix(
          #"Could not decode Profile from defaults key "profile": found 3 bytes of data, which does not decode "#
            + "as Profile: "
        )
      )
      #expect(error.description.hasSuffix("; expected Profile as JSON data."))
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func aPlainKeyThrowsForEveryOtherKindOfValue(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      store.set(.bool(true), for: "launchCount")
      store.set(.int(1), for: "onboarded")
      store.set(.int(2), for: "volume")
      store.set(.string("abc"), for: "avatar")
      store.set(.data(Data(#""dark""#.utf8)), for: "theme")
      store.set(.double(1.5), for: "lastSync")

      let messages = [
        #"Could not decode Int from defaults key "launchCount": found the bool true; expected an int."#,
        #"Could not decode Bool from defaults key "onboarded": found the int 1; expected a bool."#,
        #"Could not decode Double from defaults key "volume": found the int 2; expected a double."#,
        #"Could not decode Data from defaults key "avatar": found the string "abc"; expected data."#,
        #"Could not decode String from defaults key "theme": found the data "dark"; expected a string."#,
        #"Could not decode Date from defaults key "lastSync": found the double 1.5; expected a date."#,
      ]
      let errors = try [
        #require(throws: DefaultsCodingError.self) { try store.value(for: .launchCount) },
        #require(throws: DefaultsCodingError.self) { try store.value(for: .onboarded) },
        #require(throws: DefaultsCodingError.self) { try store.value(for: .volume) },
        #require(throws: DefaultsCodingError.self) { try store.value(for: .avatar) },
        #require(throws: DefaultsCodingError.self) { try store.value(for: .theme) },
        #require(throws: DefaultsCodingError.self) { try store.value(for: .lastSync) },
      ]
      #expect(errors.map(\.description) == messages)
      let first = errors[0]
      guard case .typeMismatch(found: "bool", expected: "int") = first.problem else {
        Issue.record("expected .typeMismatch(found: \"bool\", expected: \"int\"), got \(first.problem)")
        return
      }
      #expect(first.found == .bool(true))
    }
  }

  // MARK: Effects

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func typedEffectsPerformedByTheLiveInterpreterReadBackThroughTheirKeys(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      var environment = Environment.test()
      environment.defaults = store
      let interpreter = Interpreter.live(environment: environment)
      let date = Date(timeIntervalSince1970: 1_700_000_000)
      try interpreter.perform([
        .setDefault(Profile(name: "Blob", age: 42), for: .profile),
        .setDefault(.dark, for: .appearance),
        .setDefault("dark", for: .theme),
        .setDefault(3, for: .launchCount),
        .setDefault(true, for: .onboarded),
        .setDefault(0.5, for: .volume),
        .setDefault(Data([1, 2]), for: .avatar),
        .setDefault(date, for: .lastSync),
      ])
      #expect(try store.value(for: .profile) == Profile(name: "Blob", age: 42))
      #expect(try store.value(for: .appearance) == .dark)
      #expect(try store.value(for: .theme) == "dark")
      #expect(try store.value(for: .launchCount) == 3)
      #expect(try store.value(for: .onboarded) == true)
      #expect(try store.value(for: .volume) == 0.5)
      #expect(try store.value(for: .avatar) == Data([1, 2]))
      #expect(try store.value(for: .lastSync) == date)

      try interpreter.perform([.removeDefault(for: .profile), .removeDefault(for: .theme)])
      #expect(try store.value(for: .profile) == nil)
      #expect(try store.value(for: .theme) == nil)
      #expect(try store.value(for: .launchCount) == 3)
    }
  }
}
