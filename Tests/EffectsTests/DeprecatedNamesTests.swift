import Effects
import EffectsTestSupport
import Foundation
import Testing

/// Each deprecated name, called from a deprecated witness: the tests below call them through this
/// protocol, so they compile without deprecation warnings.
private protocol OldNames {
  func write(_ line: String, to console: any Console)
  func log(name: String, properties: [String: String], to events: any EventLogging)
  func write(_ data: Data, toPath path: String, with writer: any FileWriter) throws
  func removeItem(atPath path: String, with writer: any FileWriter) throws

  func value(forKey key: String, in store: any DefaultsStore) -> DefaultsValue?
  func setValue(_ value: DefaultsValue?, forKey key: String, in store: any DefaultsStore)
  func removeValue(forKey key: String, in store: any DefaultsStore)
  func string(forKey key: String, in store: any DefaultsStore) -> String?
  func int(forKey key: String, in store: any DefaultsStore) -> Int?
  func bool(forKey key: String, in store: any DefaultsStore) -> Bool?
  func double(forKey key: String, in store: any DefaultsStore) -> Double?
  func data(forKey key: String, in store: any DefaultsStore) -> Data?
  func date(forKey key: String, in store: any DefaultsStore) -> Date?
  func set(_ value: String, forKey key: String, in store: any DefaultsStore)
  func set(_ value: Int, forKey key: String, in store: any DefaultsStore)
  func set(_ value: Bool, forKey key: String, in store: any DefaultsStore)
  func set(_ value: Double, forKey key: String, in store: any DefaultsStore)
  func set(_ value: Data, forKey key: String, in store: any DefaultsStore)
  func set(_ value: Date, forKey key: String, in store: any DefaultsStore)
  func encode(_ value: Profile, forKey key: String, in store: any DefaultsStore) throws
  func decode(_ type: Profile.Type, forKey key: String, in store: any DefaultsStore) throws -> Profile?

  func setDefault(key: String, value: DefaultsValue) -> Effect
  func removeDefault(key: String) -> Effect

  func live() -> Interpreter<Effect>
}

private struct OldSpellings: OldNames {
  @available(*, deprecated)
  func write(_ line: String, to console: any Console) { console.write(line) }

  @available(*, deprecated)
  func log(name: String, properties: [String: String], to events: any EventLogging) {
    events.log(name: name, properties: properties)
  }

  @available(*, deprecated)
  func write(_ data: Data, toPath path: String, with writer: any FileWriter) throws {
    try writer.write(data, toPath: path)
  }

  @available(*, deprecated)
  func removeItem(atPath path: String, with writer: any FileWriter) throws {
    try writer.removeItem(atPath: path)
  }

  @available(*, deprecated)
  func value(forKey key: String, in store: any DefaultsStore) -> DefaultsValue? { store.value(forKey: key) }

  @available(*, deprecated)
  func setValue(_ value: DefaultsValue?, forKey key: String, in store: any DefaultsStore) {
    store.setValue(value, forKey: key)
  }

  @available(*, deprecated)
  func removeValue(forKey key: String, in store: any DefaultsStore) { store.removeValue(forKey: key) }

  @available(*, deprecated)
  func string(forKey key: String, in store: any DefaultsStore) -> String? { store.string(forKey: key) }

  @available(*, deprecated)
  func int(forKey key: String, in store: any DefaultsStore) -> Int? { store.int(forKey: key) }

  @available(*, deprecated)
  func bool(forKey key: String, in store: any DefaultsStore) -> Bool? { store.bool(forKey: key) }

  @available(*, deprecated)
  func double(forKey key: String, in store: any DefaultsStore) -> Double? { store.double(forKey: key) }

  @available(*, deprecated)
  func data(forKey key: String, in store: any DefaultsStore) -> Data? { store.data(forKey: key) }

  @available(*, deprecated)
  func date(forKey key: String, in store: any DefaultsStore) -> Date? { store.date(forKey: key) }

  @available(*, deprecated)
  func set(_ value: String, forKey key: String, in store: any DefaultsStore) { store.set(value, forKey: key) }

  @available(*, deprecated)
  func set(_ value: Int, forKey key: String, in store: any DefaultsStore) { store.set(value, forKey: key) }

  @available(*, deprecated)
  func set(_ value: Bool, forKey key: String, in store: any DefaultsStore) { store.set(value, forKey: key) }

  @available(*, deprecated)
  func set(_ value: Double, forKey key: String, in store: any DefaultsStore) { store.set(value, forKey: key) }

  @available(*, deprecated)
  func set(_ value: Data, forKey key: String, in store: any DefaultsStore) { store.set(value, forKey: key) }

  @available(*, deprecated)
  func set(_ value: Date, forKey key: String, in store: any DefaultsStore) { store.set(value, forKey: key) }

  @available(*, deprecated)
  func encode(_ value: Profile, forKey key: String, in store: any DefaultsStore) throws {
    try store.encode(value, forKey: key)
  }

  @available(*, deprecated)
  func decode(_ type: Profile.Type, forKey key: String, in store: any DefaultsStore) throws -> Profile? {
    try store.decode(type, forKey: key)
  }

  @available(*, deprecated)
  func setDefault(key: String, value: DefaultsValue) -> Effect { .setDefault(key: key, value: value) }

  @available(*, deprecated)
  func removeDefault(key: String) -> Effect { .removeDefault(key: key) }

  @available(*, deprecated)
  func live() -> Interpreter<Effect> { Interpreter.live() }
}

/// Every deprecated spelling still does what its new name does.
@Suite struct DeprecatedNamesTests {
  private let old: any OldNames = OldSpellings()

  @Test func consoleWriteIsPrint() {
    let console = InMemoryConsole()
    old.write("hi", to: console)
    #expect(console.lines == ["hi"])
  }

  @Test func eventLoggingLogIsTrack() {
    let events = InMemoryEventLog()
    old.log(name: "visited", properties: ["id": "7"], to: events)
    #expect(events.events == [.init(name: "visited", properties: ["id": "7"])])
  }

  @Test func fileWriterWriteToPathIsWriteFile() throws {
    let files = InMemoryFileSystem()
    try old.write(Data("hi".utf8), toPath: "/notes/today.txt", with: files)
    #expect(files.files == ["/notes/today.txt": Data("hi".utf8)])
  }

  @Test func fileWriterRemoveItemIsRemoveFile() throws {
    let files = InMemoryFileSystem(["/notes/today.txt": "hi", "/notes/other.txt": "x"])
    try old.removeItem(atPath: "/notes/today.txt", with: files)
    #expect(files.files == ["/notes/other.txt": Data("x".utf8)])
  }

  // MARK: DefaultsStore

  @Test func defaultsValueForKeyIsValueFor() {
    let store = InMemoryDefaults(["theme": "dark"])
    #expect(old.value(forKey: "theme", in: store) == .string("dark"))
    #expect(old.value(forKey: "missing", in: store) == nil)
  }

  @Test func defaultsSetValueForKeyIsSetFor() {
    let store = InMemoryDefaults(["stale": true])
    old.setValue("dark", forKey: "theme", in: store)
    old.setValue(nil, forKey: "stale", in: store)
    #expect(store.values == ["theme": "dark"])
  }

  @Test func defaultsRemoveValueForKeyIsRemoveValueFor() {
    let store = InMemoryDefaults(["theme": "dark", "size": 14])
    old.removeValue(forKey: "theme", in: store)
    #expect(store.values == ["size": 14])
  }

  @Test func defaultsStringForKeyReadsAStringAndNothingElse() {
    let store = InMemoryDefaults(["theme": "dark", "one": 1])
    #expect(old.string(forKey: "theme", in: store) == "dark")
    #expect(old.string(forKey: "one", in: store) == nil)
    #expect(old.string(forKey: "missing", in: store) == nil)
  }

  @Test func defaultsIntForKeyReadsAnIntAndNothingElse() {
    let store = InMemoryDefaults(["one": 1, "bool": true])
    #expect(old.int(forKey: "one", in: store) == 1)
    #expect(old.int(forKey: "bool", in: store) == nil, "a Bool is never an Int")
  }

  @Test func defaultsBoolForKeyReadsABoolAndNothingElse() {
    let store = InMemoryDefaults(["bool": false, "one": 1])
    #expect(old.bool(forKey: "bool", in: store) == false)
    #expect(old.bool(forKey: "one", in: store) == nil, "1 is never true")
  }

  @Test func defaultsDoubleForKeyReadsADoubleAndNothingElse() {
    let store = InMemoryDefaults(["half": 0.5, "one": 1])
    #expect(old.double(forKey: "half", in: store) == 0.5)
    #expect(old.double(forKey: "one", in: store) == nil, "an Int is never a Double")
  }

  @Test func defaultsDataForKeyReadsDataAndNothingElse() {
    let store = InMemoryDefaults(["bytes": .data(Data([1, 2])), "text": "12"])
    #expect(old.data(forKey: "bytes", in: store) == Data([1, 2]))
    #expect(old.data(forKey: "text", in: store) == nil)
  }

  @Test func defaultsDateForKeyReadsADateAndNothingElse() {
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    let store = InMemoryDefaults(["date": .date(date), "seconds": 1_700_000_000.0])
    #expect(old.date(forKey: "date", in: store) == date)
    #expect(old.date(forKey: "seconds", in: store) == nil)
  }

  @Test func defaultsSetStringForKeyStoresAString() {
    let store = InMemoryDefaults()
    old.set("dark", forKey: "theme", in: store)
    #expect(store.values == ["theme": .string("dark")])
  }

  @Test func defaultsSetIntForKeyStoresAnInt() {
    let store = InMemoryDefaults()
    old.set(3, forKey: "count", in: store)
    #expect(store.values == ["count": .int(3)])
  }

  @Test func defaultsSetBoolForKeyStoresABool() {
    let store = InMemoryDefaults()
    old.set(true, forKey: "onboarded", in: store)
    #expect(store.values == ["onboarded": .bool(true)])
  }

  @Test func defaultsSetDoubleForKeyStoresADouble() {
    let store = InMemoryDefaults()
    old.set(0.5, forKey: "volume", in: store)
    #expect(store.values == ["volume": .double(0.5)])
  }

  @Test func defaultsSetDataForKeyStoresData() {
    let store = InMemoryDefaults()
    old.set(Data([1, 2]), forKey: "avatar", in: store)
    #expect(store.values == ["avatar": .data(Data([1, 2]))])
  }

  @Test func defaultsSetDateForKeyStoresADate() {
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    let store = InMemoryDefaults()
    old.set(date, forKey: "lastSync", in: store)
    #expect(store.values == ["lastSync": .date(date)])
  }

  @Test func defaultsEncodeForKeyStoresSortedJSONThatAKeyReads() throws {
    let store = InMemoryDefaults()
    try old.encode(Profile(name: "Blob", age: 42), forKey: "profile", in: store)
    #expect(store.values == ["profile": .data(Data(#"{"age":42,"name":"Blob"}"#.utf8))])
    #expect(try store.value(for: .profile) == Profile(name: "Blob", age: 42))
  }

  @Test func defaultsDecodeForKeyReadsWhatAKeyStored() throws {
    let store = InMemoryDefaults(["profile": "not json"])
    #expect(try old.decode(Profile.self, forKey: "missing", in: store) == nil)
    #expect(throws: DefaultsCodingError.self) { try old.decode(Profile.self, forKey: "profile", in: store) }
    store.set(Profile(name: "Blob Jr.", age: 7), for: .profile)
    #expect(try old.decode(Profile.self, forKey: "profile", in: store) == Profile(name: "Blob Jr.", age: 7))
  }

  // MARK: Effect

  @Test func effectSetDefaultKeyValueIsSetDefaultValueFor() {
    #expect(old.setDefault(key: "theme", value: "dark") == .setDefault("dark", for: "theme"))
  }

  @Test func effectRemoveDefaultKeyIsRemoveDefaultFor() {
    #expect(old.removeDefault(key: "theme") == .removeDefault(for: "theme"))
  }

  // MARK: Interpreter

  @Test func interpreterLiveCalledIsLive() throws {
    let environment = Environment.test()
    let interpreter = old.live()
    try withEnvironment(environment) { try interpreter.perform([.print("current")]) }
    #expect(environment.printedLines == ["current"])
  }
}
