import Effects
import Foundation
import Keychain
import Testing

/// The keychain's in-memory mode (`storage: nil`) and a file-backed one pass the same suite.
enum KeychainUnderTest: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case inMemory
  case fileBacked

  var testDescription: String { rawValue }

  func withKeychain(_ body: (Keychain) async throws -> Void) async throws {
    switch self {
    case .inMemory:
      try await body(Keychain(storage: nil))
    case .fileBacked:
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("keychain-\(UUID().uuidString)").path
      defer { try? FileManager.default.removeItem(atPath: directory) }
      try await body(Keychain(storage: FileKeychainStorage(directory: directory)))
    }
  }
}

@Suite("Keychain contract")
struct KeychainContractTests {
  @Test(arguments: KeychainUnderTest.allCases)
  func aMissingKeyIsNilForEveryType(_ kind: KeychainUnderTest) async throws {
    try await kind.withKeychain { (keychain: Keychain) async throws in
      #expect(try await keychain.data(for: "missing") == nil)
      #expect(try await keychain.string(for: "missing") == nil)
      #expect(try await keychain.bool(for: "missing") == nil)
      #expect(try await keychain.int(for: "missing") == nil)
    }
  }

  @Test(arguments: KeychainUnderTest.allCases)
  func everyTypeRoundTrips(_ kind: KeychainUnderTest) async throws {
    try await kind.withKeychain { (keychain: Keychain) async throws in
      try await keychain.set(data: Data([0, 255]), for: "data")
      try await keychain.set(string: "s3cr3t", for: "string")
      try await keychain.set(bool: true, for: "bool")
      try await keychain.set(int: -42, for: "int")
      #expect(try await keychain.data(for: "data") == Data([0, 255]))
      #expect(try await keychain.string(for: "string") == "s3cr3t")
      #expect(try await keychain.bool(for: "bool") == true)
      #expect(try await keychain.int(for: "int") == -42)
    }
  }

  /// The seed's cross-storage test: a mock with its own encoding fails it; a self-mock cannot.
  @Test(arguments: KeychainUnderTest.allCases)
  func aStringIsStoredAsItsUTF8Bytes(_ kind: KeychainUnderTest) async throws {
    try await kind.withKeychain { (keychain: Keychain) async throws in
      try await keychain.set(string: "abc", for: "key")
      let data = try #require(try await keychain.data(for: "key"))
      #expect(String(decoding: data, as: UTF8.self) == "abc")
    }
  }

  @Test(arguments: KeychainUnderTest.allCases)
  func removingAndResettingForget(_ kind: KeychainUnderTest) async throws {
    try await kind.withKeychain { (keychain: Keychain) async throws in
      try await keychain.set(string: "a", for: "one")
      try await keychain.set(string: "b", for: "two")
      try await keychain.removeData(for: "one")
      try await keychain.removeData(for: "never-set")
      #expect(try await keychain.string(for: "one") == nil)
      #expect(try await keychain.string(for: "two") == "b")
      try await keychain.reset()
      #expect(try await keychain.string(for: "two") == nil)
    }
  }

  @Test(arguments: KeychainUnderTest.allCases)
  func keysWithPathCharactersAreSafe(_ kind: KeychainUnderTest) async throws {
    try await kind.withKeychain { (keychain: Keychain) async throws in
      try await keychain.set(string: "x", for: "../../etc/passwd")
      try await keychain.set(string: "y", for: "a/b")
      #expect(try await keychain.string(for: "../../etc/passwd") == "x")
      #expect(try await keychain.string(for: "a/b") == "y")
    }
  }

  @Test(arguments: KeychainUnderTest.allCases)
  func aStringIsNotABoolean(_ kind: KeychainUnderTest) async throws {
    try await kind.withKeychain { (keychain: Keychain) async throws in
      try await keychain.set(string: "yes", for: "flag")
      await #expect(throws: DecodingError.self) { try await keychain.bool(for: "flag") }
    }
  }
}

@Suite struct FileKeychainStorageTests {
  @Test func valuesOutliveTheKeychainThatWroteThem() async throws {
    let files = InMemoryFileSystem()
    let storage = FileKeychainStorage(directory: "/keychain", files: files)
    try await Keychain(storage: storage).set(string: "kept", for: "token")
    #expect(try await Keychain(storage: storage).string(for: "token") == "kept")
    #expect(files.files.keys.sorted() == ["/keychain/746f6b656e.item"])
  }

  @Test func theInMemoryModeWritesNothing() async throws {
    let files = InMemoryFileSystem()
    let keychain = Keychain(storage: nil)
    try await keychain.set(string: "only in memory", for: "token")
    #expect(files.files.isEmpty)
    #expect(try await keychain.string(for: "token") == "only in memory")
  }
}
