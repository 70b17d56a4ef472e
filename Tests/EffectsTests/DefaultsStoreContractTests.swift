import Effects
import Foundation
import Testing

/// One suite, run against `UserDefaults` and the in-memory double.
@Suite("DefaultsStore contract")
struct DefaultsStoreContractTests {
  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func everyTypedValueReadsBackAsItWasSet(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { store in
      let date = Date(timeIntervalSince1970: 1_700_000_000.5)
      store.set("dark", forKey: "string")
      store.set(42, forKey: "int")
      store.set(true, forKey: "bool")
      store.set(false, forKey: "false")
      store.set(2.5, forKey: "double")
      store.set(2.0, forKey: "wholeDouble")
      store.set(Data([1, 2, 3]), forKey: "data")
      store.set(date, forKey: "date")
      #expect(store.string(forKey: "string") == "dark")
      #expect(store.int(forKey: "int") == 42)
      #expect(store.bool(forKey: "bool") == true)
      #expect(store.bool(forKey: "false") == false)
      #expect(store.double(forKey: "double") == 2.5)
      #expect(store.double(forKey: "wholeDouble") == 2.0)
      #expect(store.data(forKey: "data") == Data([1, 2, 3]))
      #expect(store.date(forKey: "date") == date)
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func arraysAndDictionariesReadBackAsTheyWereSet(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { store in
      let value: DefaultsValue = ["tags": ["a", "b"], "count": 2, "enabled": true, "ratio": 0.5]
      store.setValue(value, forKey: "nested")
      #expect(store.value(forKey: "nested") == value)
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func aMissingKeyReadsAsNilForEveryType(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { store in
      #expect(store.value(forKey: "missing") == nil)
      #expect(store.string(forKey: "missing") == nil)
      #expect(store.int(forKey: "missing") == nil)
      #expect(store.bool(forKey: "missing") == nil)
      #expect(store.double(forKey: "missing") == nil)
      #expect(store.data(forKey: "missing") == nil)
      #expect(store.date(forKey: "missing") == nil)
      let profile = try store.decode(Profile.self, forKey: "missing")
      #expect(profile == nil)
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func aValueReadAsAnotherTypeIsNil(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { store in
      store.set(true, forKey: "bool")
      store.set(1, forKey: "one")
      store.set(1.0, forKey: "double")
      store.set("1", forKey: "string")
      #expect(store.int(forKey: "bool") == nil, "a Bool stays a Bool, never an Int")
      #expect(store.double(forKey: "bool") == nil)
      #expect(store.bool(forKey: "one") == nil, "1 is an Int, never true")
      #expect(store.double(forKey: "one") == nil)
      #expect(store.int(forKey: "double") == nil)
      #expect(store.int(forKey: "string") == nil)
      #expect(store.data(forKey: "string") == nil)
      #expect(store.string(forKey: "one") == nil)
      #expect(store.date(forKey: "double") == nil)
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func removingAKeyLeavesNothingUnderIt(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { store in
      store.set("x", forKey: "a")
      store.set("y", forKey: "b")
      store.removeValue(forKey: "a")
      store.setValue(nil, forKey: "b")
      #expect(store.value(forKey: "a") == nil)
      #expect(store.value(forKey: "b") == nil)
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func settingAgainReplacesTheValueAndItsType(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { store in
      store.set(1, forKey: "a")
      store.set("one", forKey: "a")
      #expect(store.int(forKey: "a") == nil)
      #expect(store.string(forKey: "a") == "one")
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func aCodableValueRoundTrips(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { store in
      try store.encode(Profile(name: "Blob", age: 42), forKey: "profile")
      let profile = try store.decode(Profile.self, forKey: "profile")
      #expect(profile == Profile(name: "Blob", age: 42))
      #expect(store.data(forKey: "profile") == Data(#"{"age":42,"name":"Blob"}"#.utf8), "stored as sorted JSON")
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func invalidJSONThrowsADecodingErrorNamingTheKeyAndType(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { store in
      store.set(Data("{not json".utf8), forKey: "profile")
      let error = try #require(throws: DefaultsCodingError.self) { try store.decode(Profile.self, forKey: "profile") }
      #expect(error.key == "profile")
      #expect(
        error.description
          == #"Could not decode Profile from defaults key "profile": found the data {not json, which does not "#
          + "decode as Profile: the given data was not valid JSON; expected Profile as JSON data."
      )
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func jsonOfTheWrongShapeThrowsADecodingErrorNamingTheKey(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { store in
      store.set(#"{"name": "Blob"}"#, forKey: "profile")
      let error = try #require(throws: DefaultsCodingError.self) { try store.decode(Profile.self, forKey: "profile") }
      #expect(
        error.localizedDescription
          == #"Could not decode Profile from defaults key "profile": found the string "{\"name\": \"Blob\"}", "#
          + #"which does not decode as Profile: no value for "age"; expected Profile as JSON data."#
      )
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func aNonJSONValueReadAsCodableThrowsNamingWhatWasFound(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { store in
      store.set(7, forKey: "profile")
      let error = try #require(throws: DefaultsCodingError.self) { try store.decode(Profile.self, forKey: "profile") }
      #expect(
        error.description
          == #"Could not decode Profile from defaults key "profile": found the int 7; expected Profile as JSON data."#
      )
    }
  }
}
