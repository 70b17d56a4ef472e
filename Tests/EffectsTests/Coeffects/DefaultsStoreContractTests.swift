import Effects
import Foundation
import Testing

/// One suite, run against `UserDefaults` and the in-memory double: the two requirements,
/// `value(for:)` and `set(_:for:)`, under a key's name. Typed keys have their own suite,
/// `DefaultsKeyContractTests`.
@Suite("DefaultsStore contract")
struct DefaultsStoreContractTests {
  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func everyKindOfValueReadsBackAsItWasSet(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { store in
      let date = Date(timeIntervalSince1970: 1_700_000_000.5)
      let values: [String: DefaultsValue] = [
        "string": "dark",
        "int": 42,
        "bool": true,
        "false": false,
        "double": 2.5,
        "wholeDouble": 2.0,
        "data": .data(Data([1, 2, 3])),
        "date": .date(date),
        "array": ["a", 1, true],
        "nested": ["tags": ["a", "b"], "count": 2, "enabled": true, "ratio": 0.5],
      ]
      for (key, value) in values {
        store.set(value, for: key)
      }
      for (key, value) in values {
        #expect(store.value(for: key) == value, "under \(key)")
      }
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func aMissingKeyReadsAsNil(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { store in
      #expect(store.value(for: "missing") == nil)
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func aValueKeepsItsKind(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { store in
      store.set(true, for: "bool")
      store.set(1, for: "one")
      store.set(1.0, for: "double")
      store.set("1", for: "string")
      #expect(store.value(for: "bool") == .bool(true), "a Bool stays a Bool, never the Int 1")
      #expect(store.value(for: "one") == .int(1), "1 is an Int, never true")
      #expect(store.value(for: "double") == .double(1.0), "a whole Double stays a Double")
      #expect(store.value(for: "string") == .string("1"))
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func removingAKeyLeavesNothingUnderIt(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { store in
      store.set("x", for: "a")
      store.set("y", for: "b")
      store.set("z", for: "c")
      store.removeValue(for: "a")
      store.set(nil, for: "b")
      store.removeValue(for: "never-set")
      #expect(store.value(for: "a") == nil)
      #expect(store.value(for: "b") == nil)
      #expect(store.value(for: "c") == "z", "other keys stay")
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func settingAgainReplacesTheValueAndItsType(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { store in
      store.set(1, for: "a")
      store.set("one", for: "a")
      #expect(store.value(for: "a") == .string("one"))
    }
  }

  @Test(arguments: DefaultsStoreUnderTest.allCases)
  func aKeyAndItsNameReadEachOthersValues(_ kind: DefaultsStoreUnderTest) throws {
    try kind.withStore { (store) throws in
      store.set("dark", for: "theme")
      #expect(try store.value(for: .theme) == "dark")
      store.set("light", for: .theme)
      #expect(store.value(for: "theme") == .string("light"))
      store.removeValue(for: .theme)
      #expect(store.value(for: "theme") == nil)
    }
  }
}
