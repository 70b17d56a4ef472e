import Effects
import EffectsTestSupport
import Testing

/// The sources `Environment.random` answers, live and in a test.
enum RandomUnderTest: String, CaseIterable, CustomTestStringConvertible {
  case live
  case seeded

  var testDescription: String { rawValue }

  /// `Environment.live`'s source, or a fresh `Environment.test()`'s.
  var environment: Environment {
    switch self {
    case .live: Environment.live
    case .seeded: Environment.test()
    }
  }
}

/// One suite, run against the system's generator and the seeded one: what code drawing from
/// `environment.random` may rely on, whichever it gets.
@Suite("RandomSource contract")
struct RandomSourceContractTests {
  static let deck = Array(0..<52)

  @Test(arguments: RandomUnderTest.allCases)
  func aSecondShuffleFromACopyGoesOnWhereTheFirstStopped(_ source: RandomUnderTest) {
    let environment = source.environment
    var first = environment.random
    var second = first
    let a = Self.deck.shuffled(using: &first)
    let b = Self.deck.shuffled(using: &second)
    let c = Self.deck.shuffled(using: &first)
    #expect(a != b)
    #expect(b != c)
    #expect(Set([a, b, c]).count == 3)
  }

  @Test(arguments: RandomUnderTest.allCases)
  func twoReadsOfTheEnvironmentDrawFromOneStream(_ source: RandomUnderTest) {
    let environment = source.environment
    var firstRead = environment.random
    var secondRead = environment.random
    let a = (0..<8).map { _ in Int.random(in: 0..<1_000_000, using: &firstRead) }
    let b = (0..<8).map { _ in Int.random(in: 0..<1_000_000, using: &secondRead) }
    #expect(a != b)
  }

  @Test(arguments: RandomUnderTest.allCases)
  func drawsCoverTheirRangeAndEveryBit(_ source: RandomUnderTest) {
    var random = source.environment.random
    let rolls = Set((0..<1_000).map { _ in Int.random(in: 1...6, using: &random) })
    #expect(rolls == Set(1...6))
    var anySet: UInt64 = 0
    var allSet: UInt64 = .max
    for _ in 0..<256 {
      let bits = random.next()
      anySet |= bits
      allSet &= bits
    }
    #expect(anySet == .max)
    #expect(allSet == 0)
  }

  @Test(arguments: RandomUnderTest.allCases)
  func drawsFromManyTasksAtOnceAreSafeAndNeverRepeatAValue(_ source: RandomUnderTest) async {
    var deviations: [Int] = []
    for replay in 0..<300 {
      let random = source.environment.random
      let drawn = await withTaskGroup(of: [UInt64].self) { group in
        for _ in 0..<4 {
          group.addTask { (0..<250).map { _ in random.next() } }
        }
        return await group.reduce(into: []) { $0 += $1 }
      }
      if Set(drawn).count != 1_000 { deviations.append(replay) }
    }
    #expect(deviations == [])
  }
}
