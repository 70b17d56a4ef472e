import Effects
import EffectsTestSupport
import Testing

@Suite struct RandomSourceTests {
  /// xoshiro256** seeded by SplitMix64, as the authors' C reference implementations answer
  /// (xoshiro256starstar.c and splitmix64.c, compiled and run once).
  @Test(
    arguments: [
      (0, [0x99EC_5F36_CB75_F2B4, 0xBF6E_1F78_4956_452A, 0x1A5F_849D_4933_E6E0, 0x6AA5_94F1_262D_2D2C]),
      (42, [0x1578_0B2E_0C2E_C716, 0x6104_D986_6D11_3A7E, 0xAE17_5332_39E4_99A1, 0xECB8_AD47_03B3_60A1]),
    ] as [(UInt64, [UInt64])]
  )
  func aSeedGivesTheReferenceImplementationsNumbers(_ seed: UInt64, _ expected: [UInt64]) {
    let random = RandomSource(seed: seed)
    #expect((0..<4).map { _ in random.next() } == expected)
  }

  /// What the standard library builds on the seeded numbers, pinned: the same on every platform
  /// for this toolchain's standard library (its `shuffled(using:)` and `random(in:using:)`).
  @Test func aSeedGivesTheSameShuffleAndDraws() {
    var random = RandomSource(seed: 0)
    #expect(Array(0..<10).shuffled(using: &random) == [6, 7, 2, 5, 8, 9, 1, 4, 3, 0])
    #expect((0..<8).map { _ in Int.random(in: 1...6, using: &random) } == [6, 1, 1, 1, 4, 3, 2, 5])
    #expect(["a", "b", "c"].randomElement(using: &random) == "a")
  }

  @Test func theSameSeedReplaysAndAnotherSeedDoesNot() {
    let draw = { (seed: UInt64) in
      var random = RandomSource(seed: seed)
      return Array(0..<52).shuffled(using: &random)
    }
    #expect(draw(7) == draw(7))
    #expect(draw(7) != draw(8))
  }

  @Test func everyTestEnvironmentStartsFromSeedZeroAndItsCopiesGoOn() {
    let environment = Environment.test()
    let copy = environment
    #expect(environment.random.next() == 0x99EC_5F36_CB75_F2B4)
    #expect(copy.random.next() == 0xBF6E_1F78_4956_452A)
    #expect(Environment.test().random.next() == 0x99EC_5F36_CB75_F2B4)
  }

  @Test func wrappingASourceGivesItBackSharingItsStream() {
    let source = RandomSource(seed: 0)
    let wrapped = RandomSource(source)
    #expect(source.next() == 0x99EC_5F36_CB75_F2B4)
    #expect(wrapped.next() == 0xBF6E_1F78_4956_452A)
  }

  @Test func aGeneratorOfYourOwnIsSharedByEveryCopy() {
    struct Counting: RandomNumberGenerator, Sendable {
      var count: UInt64 = 0
      mutating func next() -> UInt64 {
        count += 1
        return count
      }
    }
    let source = RandomSource(Counting())
    let copy = source
    #expect([source.next(), copy.next(), source.next()] == [1, 2, 3])
  }
}
