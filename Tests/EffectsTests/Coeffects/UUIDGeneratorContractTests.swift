import Effects
import EffectsTestSupport
import Foundation
import Testing

/// The generators `Environment.uuid` answers, live and in a test.
enum UUIDsUnderTest: String, CaseIterable, CustomTestStringConvertible {
  case live
  case test

  var testDescription: String { rawValue }

  /// A fresh generator: `Environment.live`'s, or a fresh `Environment.test()`'s.
  var generator: any UUIDGenerator {
    switch self {
    case .live: Environment.live.uuid
    case .test: Environment.test().uuid
    }
  }
}

/// One suite, run against `SystemUUIDs` and `IncrementingUUIDs`: every call is a new identifier,
/// from any number of threads at once.
@Suite("UUIDGenerator contract")
struct UUIDGeneratorContractTests {
  @Test(arguments: UUIDsUnderTest.allCases)
  func everyCallIsANewIdentifier(_ uuids: UUIDsUnderTest) {
    let generator = uuids.generator
    let made = (0..<1_000).map { _ in generator() }
    #expect(Set(made).count == 1_000)
  }

  @Test(arguments: UUIDsUnderTest.allCases)
  func identifiersRoundTripThroughTheirString(_ uuids: UUIDsUnderTest) {
    let generator = uuids.generator
    for _ in 0..<100 {
      let uuid = generator()
      #expect(UUID(uuidString: uuid.uuidString) == uuid)
    }
  }

  @Test(arguments: UUIDsUnderTest.allCases)
  func callsFromManyTasksAtOnceNeverRepeatAnIdentifier(_ uuids: UUIDsUnderTest) async {
    var deviations: [Int] = []
    for replay in 0..<300 {
      let generator = uuids.generator
      let made = await withTaskGroup(of: [UUID].self) { group in
        for _ in 0..<4 {
          group.addTask { (0..<250).map { _ in generator() } }
        }
        return await group.reduce(into: []) { $0 += $1 }
      }
      if Set(made).count != 1_000 { deviations.append(replay) }
    }
    #expect(deviations == [])
  }
}
