import Effects
import Foundation
import Testing

/// A defaults store for a contract test: `UserDefaults` on a unique suite (removed afterwards), or
/// the in-memory double.
enum DefaultsStoreUnderTest: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case userDefaults
  case inMemory

  var testDescription: String { rawValue }

  func withStore(_ body: (any DefaultsStore) throws -> Void) throws {
    switch self {
    case .userDefaults:
      let suiteName = "swift-effects-tests-\(UUID().uuidString)"
      defer { UserDefaults().removePersistentDomain(forName: suiteName) }
      try body(UserDefaultsStore(suiteName: suiteName))
    case .inMemory:
      try body(InMemoryDefaults())
    }
  }
}
