import Effects
import Foundation
import Testing

@Suite struct UserDefaultsStoreTests {
  @Test func valuesWrittenDirectlyToUserDefaultsAreReadWithTheirTypes() throws {
    let suiteName = "swift-effects-tests-\(UUID().uuidString)"
    defer { UserDefaults().removePersistentDomain(forName: suiteName) }
    let defaults = try #require(UserDefaults(suiteName: suiteName))
    defaults.set(true, forKey: "bool")
    defaults.set(NSNumber(value: true), forKey: "boxedBool")
    defaults.set(NSNumber(value: 7), forKey: "boxedInt")
    defaults.set(NSNumber(value: 1.5), forKey: "boxedDouble")
    defaults.set(["a", 1] as [Any], forKey: "array")

    let store = UserDefaultsStore(suiteName: suiteName)
    #expect(store.value(forKey: "bool") == .bool(true))
    #expect(store.value(forKey: "boxedBool") == .bool(true))
    #expect(store.value(forKey: "boxedInt") == .int(7))
    #expect(store.value(forKey: "boxedDouble") == .double(1.5))
    #expect(store.value(forKey: "array") == ["a", 1])
  }

  @Test func twoStoresOnTheSameSuiteSeeEachOthersWrites() {
    let suiteName = "swift-effects-tests-\(UUID().uuidString)"
    defer { UserDefaults().removePersistentDomain(forName: suiteName) }
    UserDefaultsStore(suiteName: suiteName).set("shared", forKey: "k")
    #expect(UserDefaultsStore(suiteName: suiteName).string(forKey: "k") == "shared")
    #expect(UserDefaultsStore(suiteName: suiteName).suiteName == suiteName)
  }
}
