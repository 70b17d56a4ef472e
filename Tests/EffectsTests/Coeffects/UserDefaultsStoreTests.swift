@testable import Effects
import EffectsTestSupport
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
    #expect(store.value(for: "bool") == .bool(true))
    #expect(store.value(for: "boxedBool") == .bool(true))
    #expect(store.value(for: "boxedInt") == .int(7))
    #expect(store.value(for: "boxedDouble") == .double(1.5))
    #expect(store.value(for: "array") == ["a", 1])
  }

  @Test func twoStoresOnTheSameSuiteSeeEachOthersWrites() {
    let suiteName = "swift-effects-tests-\(UUID().uuidString)"
    defer { UserDefaults().removePersistentDomain(forName: suiteName) }
    UserDefaultsStore(suiteName: suiteName).set("shared", for: "k")
    #expect(UserDefaultsStore(suiteName: suiteName).value(for: "k") == "shared")
    #expect(UserDefaultsStore(suiteName: suiteName).suiteName == suiteName)
  }

  @Test func plainValuesWrittenThroughKeysAreWhatOtherCodeReadsFromUserDefaults() throws {
    let suiteName = "swift-effects-tests-\(UUID().uuidString)"
    defer { UserDefaults().removePersistentDomain(forName: suiteName) }
    let store = UserDefaultsStore(suiteName: suiteName)
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    store.set("dark", for: .theme)
    store.set(3, for: .launchCount)
    store.set(true, for: .onboarded)
    store.set(0.5, for: .volume)
    store.set(Data([1, 2]), for: .avatar)
    store.set(date, for: .lastSync)
    store.set(Profile(name: "Blob", age: 42), for: .profile)

    let defaults = try #require(UserDefaults(suiteName: suiteName))
    #expect(defaults.string(forKey: "theme") == "dark")
    #expect(defaults.integer(forKey: "launchCount") == 3)
    #expect(defaults.bool(forKey: "onboarded"))
    #expect(defaults.double(forKey: "volume") == 0.5)
    #expect(defaults.data(forKey: "avatar") == Data([1, 2]))
    #expect(defaults.object(forKey: "lastSync") as? Date == date)
    #expect(defaults.data(forKey: "profile") == Data(#"{"age":42,"name":"Blob"}"#.utf8))
  }

  @Test func aStringWrittenByOtherCodeThrowsWhenReadAsACodableValue() throws {
    let suiteName = "swift-effects-tests-\(UUID().uuidString)"
    defer { UserDefaults().removePersistentDomain(forName: suiteName) }
    try #require(UserDefaults(suiteName: suiteName)).set("Blob", forKey: "profile")
    let error = try #require(throws: DefaultsCodingError.self) {
      try UserDefaultsStore(suiteName: suiteName).value(for: .profile)
    }
    #expect(error.found == .string("Blob"))
    #expect(
      error.description
        == #"Could not decode Profile from defaults key "profile": found the string "Blob", which does not "#
        + "decode as Profile: the given data was not valid JSON; expected Profile as JSON data."
    )
  }

  @Test func aSuiteNameUserDefaultsRefusesFailsTheTestAtTheLineThatMadeTheStore() {
    let line = #line + 2
    let (store, issues) = withCapturedIssues {
      UserDefaultsStore(suiteName: "com.example.app", at: CallSite(), open: { _ in nil })
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          UserDefaultsStore(suiteName: "com.example.app") opened no suite: UserDefaults refused the name. Pass \
          another name (not the app's bundle identifier, nor NSGlobalDomain), or nil for UserDefaults.standard.
          """,
          line: line
        )
      ]
    )
    // The test has failed; the process goes on, with a store that holds nothing.
    #expect(store.suiteName == "com.example.app")
    store.set("dark", for: "theme")
    #expect(store.value(for: "theme") == nil)
  }

  // Exit tests exist on macOS, Linux and Windows only.
  #if os(macOS) || os(Linux) || os(Windows)
  @Test func inAnAppASuiteNameUserDefaultsRefusesStopsTheProgramNamingIt() async {
    // The child of an exit test runs no test, so it is given the app's behaviour explicitly.
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = UserDefaultsStore(suiteName: "com.example.app", at: CallSite(), open: { _ in nil }, reporter: nil)
    }
    let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(output.contains(#"UserDefaultsStore(suiteName: "com.example.app") opened no suite"#))
  }
  #endif

  /// On Apple platforms `UserDefaults.set` tells its observers (key-value observing, the
  /// did-change notification) before it returns, on the same thread. An observer that reads the
  /// store back reads the new value: the store holds no lock of its own across `set`.
  @Test func anObserverToldDuringSetReadsTheStoreBack() throws {
    let suiteName = "swift-effects-tests-\(UUID().uuidString)"
    defer { UserDefaults().removePersistentDomain(forName: suiteName) }
    let defaults = try #require(ObservedDefaults(suiteName: suiteName))
    let store = UserDefaultsStore(suiteName: suiteName, at: CallSite(), open: { _ in defaults })
    let seen = Locked<[DefaultsValue?]>([])
    defaults.observer = { key in seen.withLock { $0.append(store.value(for: key)) } }
    store.set("dark", for: "theme")
    store.set(nil, for: "theme")
    #expect(seen.snapshot == ["dark", nil])
  }

  /// With no lock of its own, the store relies on `UserDefaults` being thread-safe: writes and
  /// reads from many tasks at once (checked under the thread sanitizer in CI) all land.
  @Test func writesAndReadsFromManyTasksAtOnceAllLand() async throws {
    let suiteName = "swift-effects-tests-\(UUID().uuidString)"
    defer { UserDefaults().removePersistentDomain(forName: suiteName) }
    let store = UserDefaultsStore(suiteName: suiteName)
    await withTaskGroup(of: Void.self) { group in
      for writer in 0..<4 {
        group.addTask {
          for index in 0..<250 {
            store.set(.int(index), for: "key-\(writer)")
            _ = store.value(for: "key-\((writer + 1) % 4)")
          }
        }
      }
    }
    for writer in 0..<4 {
      #expect(store.value(for: "key-\(writer)") == .int(249))
    }
  }
}

/// `UserDefaults` telling an observer of each change before `set` returns, as Apple's does.
private final class ObservedDefaults: UserDefaults {
  nonisolated(unsafe) var observer: (String) -> Void = { _ in }

  override func set(_ value: Any?, forKey key: String) {
    super.set(value, forKey: key)
    observer(key)
  }

  override func removeObject(forKey key: String) {
    super.removeObject(forKey: key)
    observer(key)
  }
}
