/// Where random numbers come from, as a co-effect: ``Environment/random``. A
/// `RandomNumberGenerator`, so every standard-library API that takes one accepts it.
///
/// Code that calls `shuffled()` or `Int.random(in:)` draws different numbers on every run, so its
/// test cannot state what it expects; code that draws from `environment.random` can, because a
/// test environment's source is seeded:
///
/// ```swift
/// func deal(_ deck: [Card], environment: Environment = .current) -> [Card] {
///   var random = environment.random
///   return Array(deck.shuffled(using: &random).prefix(5))
/// }
///
/// @Test(.environment(.test())) func dealsTheSameHandForTheSameSeed() {
///   #expect(deal(deck) == [.aceOfSpades, …])  // the same five cards on every run, on every platform
/// }
/// ```
///
/// **Copies share one stream.** `var random = environment.random` copies a reference to the
/// source, not its state: each draw advances the environment's stream, so a second
/// `shuffled(using:)` — from the same copy, another copy or another read of `environment.random` —
/// goes on where the first stopped and never replays its numbers. Draws from many threads at once
/// are safe: the stream is behind a lock (the live source needs none).
///
/// Live: ``system``, the system's cryptographically secure generator. `Environment.test()` answers
/// `RandomSource(seed: 0)`, fresh for every test environment; set your own seed with
/// ``init(seed:)``.
public struct RandomSource: RandomNumberGenerator, Sendable {
  private let stream: any RandomStream

  private init(stream: any RandomStream) {
    self.stream = stream
  }

  /// A seeded, reproducible source: the same seed gives the same numbers, on every platform and
  /// every run.
  ///
  /// The generator is xoshiro256** (Blackman and Vigna), its state filled from `seed` by
  /// SplitMix64, both implemented in this library in fixed-width integer arithmetic: its `next()`
  /// answers the same 64-bit numbers wherever it runs, and a test pins them. What the standard
  /// library builds on them (`shuffled(using:)`, `Int.random(in:using:)`, `randomElement(using:)`)
  /// is the standard library's code, the same on Linux and Apple platforms for one Swift version
  /// and one word size (on a 32-bit platform, arm64_32 watches, `Int` is 32 bits and draws differ);
  /// the library's tests pin a shuffle and a few draws, so a toolchain that changed those
  /// algorithms would be seen.
  ///
  /// ```swift
  /// environment.random = RandomSource(seed: 42)
  /// ```
  public init(seed: UInt64) {
    self.init(stream: SharedStream(Xoshiro256StarStar(seed: seed)))
  }

  /// A source that draws from `generator`, shared by every copy of the source and behind a lock.
  ///
  /// The source keeps its own copy of a generator that is a value. A generator that is a class is
  /// shared, not copied: draw from it only through the source, or its draws escape the lock.
  ///
  /// ```swift
  /// environment.random = RandomSource(MyGenerator())
  /// ```
  public init(_ generator: some RandomNumberGenerator & Sendable) {
    if let source = generator as? RandomSource {
      self = source
    } else {
      self.init(stream: SharedStream(generator))
    }
  }

  /// The live value: `SystemRandomNumberGenerator`, the system's cryptographically secure
  /// generator, which holds no state and is safe from any thread.
  public static let system = RandomSource(stream: SystemStream())

  /// The next 64 random bits, advancing the stream every copy shares.
  public func next() -> UInt64 {
    stream.next()
  }
}

/// A stream of random bits that copies of a ``RandomSource`` share.
private protocol RandomStream: Sendable {
  func next() -> UInt64
}

/// The system's generator: stateless, so it needs no lock.
private struct SystemStream: RandomStream {
  func next() -> UInt64 {
    var generator = SystemRandomNumberGenerator()
    return generator.next()
  }
}

/// A generator with state, behind a lock.
private final class SharedStream<Generator: RandomNumberGenerator>: RandomStream {
  private let generator: Locked<Generator>

  init(_ generator: Generator) {
    self.generator = Locked(generator)
  }

  func next() -> UInt64 {
    generator.withLock { $0.next() }
  }
}
