import Foundation

/// One benchmark's work: a whole workload of `size` operations, run once per iteration.
///
/// The benchmark suite (`Benchmarks/Comparisons`) measures every workload of ``Workload/all``; the
/// `Profile` tool runs one of them outside the harness, for `valgrind --tool=callgrind`.
public struct Workload: Sendable {
  /// How the work runs: on the caller's thread, or as async code (which may hop to the main actor).
  public enum Body: Sendable {
    case sync(@Sendable () -> Void)
    case async(@Sendable () async -> Void)
  }

  /// What this workload's allocations do from run to run.
  public enum Allocations: Sendable {
    /// The same count every run: synchronous work.
    case exact
    /// A little different each run: work that starts tasks (which thread runs a job decides what
    /// the runtime allocates).
    case nearlyExact
    /// Different each run: work that wakes the main queue's thread a varying number of times.
    case varying
  }

  /// `workload.size.side`, e.g. `callbacks.1e4.effects`. The side is `effects` (this library), a
  /// peer (`combine-schedulers`, `swift-clocks`, `swift-dependencies`) or `floor`, the least the
  /// work could cost; sizes are written `1e3` … `1e6` so that names sort by size (`diff` runs
  /// at 50,000 alone: `5e4`).
  public var name: String
  /// How many operations one run performs.
  public var size: Int
  /// Whether this is one of the peers.
  public var isPeer: Bool
  /// Whether one run takes seconds (a peer at its larger sizes): run it once, without a warm-up.
  public var takesSeconds: Bool
  public var allocations: Allocations
  public var body: Body

  init(
    _ workload: String,
    size: Int,
    side: String,
    takesSeconds: Bool = false,
    allocations: Allocations = .exact,
    body: Body
  ) {
    self.name = "\(workload).\(label(size)).\(side)"
    self.size = size
    self.isPeer = !["effects", "floor"].contains(side)
    self.takesSeconds = takesSeconds
    self.allocations = allocations
    self.body = body
  }

  /// Every workload, grouped so that the sides of one workload and size are neighbours.
  public static let all: [Workload] =
    callbackWorkloads() + callbackStepWorkloads() + stepWorkloads() + sleeperWorkloads() + readWorkloads()
    + testDoubleWorkloads() + diffWorkloads() + reportWorkloads() + scopeWorkloads() + modelStepWorkloads()
    + explorationWorkloads()
}

/// `1e3` for 1,000, `5e4` for 50,000: a size written short, as a digit and a power of ten.
func label(_ size: Int) -> String {
  var exponent = 0
  var rest = size
  while rest >= 10, rest % 10 == 0 {
    rest /= 10
    exponent += 1
  }
  precondition(rest < 10, "sizes are a digit times a power of ten: \(size)")
  return "\(rest)e\(exponent)"
}

/// Keeps a value alive, so the optimizer cannot drop the work that produced it.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}

/// A counter bumped by callbacks that the scheduler under test runs one at a time.
final class Counter: @unchecked Sendable {
  private(set) var value = 0
  func increment() { value += 1 }
}

/// A counter bumped by tasks that may run on any thread.
final class AtomicCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  var value: Int { lock.withLock { count } }
  func increment() { lock.withLock { count += 1 } }
}

/// A deterministic random number generator (SplitMix64), so every run and every side schedules
/// the same deadlines.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
