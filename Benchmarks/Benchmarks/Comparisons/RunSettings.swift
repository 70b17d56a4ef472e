import Benchmark
import Foundation

/// How long and how often each benchmark runs: a full run, or a smoke pass (`BENCHMARK_SMOKE=1`)
/// that only checks every benchmark still builds, runs and allocates as it did.
struct RunSettings {
  /// Whether this is a smoke pass: three iterations each, and no peer at 10,000 or more (each of
  /// those takes seconds to minutes per iteration; at 1,000 the same peer code runs).
  var smoke: Bool

  static let current = RunSettings(smoke: ProcessInfo.processInfo.environment["BENCHMARK_SMOKE"] != nil)

  /// What every benchmark measures. Time is in nanoseconds per iteration (one whole workload);
  /// instructions are counted only where the machine's perf events count them.
  var configuration: Benchmark.Configuration {
    .init(
      metrics: [.wallClock, .cpuTotal, .instructions, .mallocCountTotal, .peakMemoryResident],
      timeUnits: .nanoseconds,
      warmupIterations: 1,
      maxDuration: smoke ? .milliseconds(500) : .seconds(3),
      maxIterations: smoke ? 3 : 25,
      thresholds: Self.thresholds
    )
  }

  /// ``configuration`` with other tolerances for the stored thresholds.
  func configuration(thresholds: [BenchmarkMetric: BenchmarkThresholds]) -> Benchmark.Configuration {
    var configuration = self.configuration
    configuration.thresholds = thresholds
    return configuration
  }

  /// A peer workload that takes seconds per iteration: no warm-up, and one iteration once it has
  /// taken longer than the default duration.
  func slowPeer() -> Benchmark.Configuration {
    var configuration = self.configuration
    configuration.warmupIterations = 0
    configuration.maxIterations = 3
    return configuration
  }

  /// Whether a peer benchmark of `size` operations runs in this pass.
  func runsPeer(size: Int) -> Bool {
    !smoke || size < 10_000
  }

  /// The tolerances `swift package benchmark thresholds check` applies to the stored p90 values
  /// (`Thresholds/`). Only the deterministic metrics are stored there (the check and the update
  /// run with `--metric mallocCountTotal --metric instructions`), so wall and CPU time never gate.
  /// A synchronous workload allocates exactly the same each run: no tolerance. A workload that
  /// starts tasks allocates a little differently each run (which thread runs a job decides what
  /// the runtime allocates): 5% either way.
  static var thresholds: [BenchmarkMetric: BenchmarkThresholds] {
    [
      .mallocCountTotal: .init(relative: [.p90: 0], absolute: [.p90: 0]),
      .instructions: .init(relative: [.p90: 2]),
    ]
  }

  /// The tolerances of a workload that starts tasks: see ``thresholds``.
  static var concurrentThresholds: [BenchmarkMetric: BenchmarkThresholds] {
    [
      .mallocCountTotal: .init(relative: [.p90: 5]),
      .instructions: .init(relative: [.p90: 5]),
    ]
  }
}

/// `1e3` for 1,000: sizes written so that benchmark names sort in size order.
func label(_ size: Int) -> String {
  var exponent = 0
  var rest = size
  while rest >= 10, rest % 10 == 0 {
    rest /= 10
    exponent += 1
  }
  precondition(rest == 1, "sizes are powers of ten: \(size)")
  return "1e\(exponent)"
}

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
