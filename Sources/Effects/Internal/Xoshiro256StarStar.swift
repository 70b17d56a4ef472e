/// xoshiro256** 1.0 (David Blackman and Sebastiano Vigna, 2018), the generator behind
/// `RandomSource(seed:)`: 256 bits of state, fixed-width arithmetic only, so the same seed gives
/// the same numbers on every platform. Its state is filled from a 64-bit seed by SplitMix64, as
/// the authors recommend; SplitMix64 is a bijection of its counter, so four of its outputs are
/// never all zero (the one state xoshiro cannot leave).
struct Xoshiro256StarStar: RandomNumberGenerator, Sendable {
  private var state: (UInt64, UInt64, UInt64, UInt64)

  init(seed: UInt64) {
    var splitMix = seed
    func nextSplitMix() -> UInt64 {
      splitMix &+= 0x9E37_79B9_7F4A_7C15
      var z = splitMix
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    state = (nextSplitMix(), nextSplitMix(), nextSplitMix(), nextSplitMix())
  }

  mutating func next() -> UInt64 {
    let result = rotateLeft(state.1 &* 5, by: 7) &* 9
    let shifted = state.1 << 17
    state.2 ^= state.0
    state.3 ^= state.1
    state.1 ^= state.2
    state.0 ^= state.3
    state.2 ^= shifted
    state.3 = rotateLeft(state.3, by: 45)
    return result
  }

  private func rotateLeft(_ value: UInt64, by count: UInt64) -> UInt64 {
    (value << count) | (value >> (64 - count))
  }
}
