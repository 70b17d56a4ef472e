import Benchmark
import Foundation
import Workloads

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
      maxIterations: smoke ? 3 : 25
    )
  }

  /// Whether `workload` runs in this pass.
  func runs(_ workload: Workload) -> Bool {
    !smoke || !workload.isPeer || workload.size < 10_000
  }

  /// ``configuration`` for `workload`: a workload that takes seconds runs once, without a
  /// warm-up; the tolerances follow its allocations.
  func configuration(for workload: Workload) -> Benchmark.Configuration {
    var configuration = self.configuration
    if workload.takesSeconds {
      configuration.warmupIterations = 0
      configuration.maxIterations = 1
    }
    configuration.thresholds = Self.thresholds(workload.allocations)
    return configuration
  }

  /// How many allocations an exact workload may differ by: the harness's own, which vary between
  /// machines. The same commit gave +1 or +2 on every exact benchmark on CI's machine and none here.
  /// A regression of ours is per operation, and the smallest stored workload has 1,000 operations,
  /// so one more allocation each still fails the check by a factor of 100.
  static let harnessAllocationSlack = 10

  /// The tolerances `swift package benchmark thresholds check` applies to the stored p90 values
  /// (`Thresholds/`). Only the deterministic metrics are stored there (`thresholds.sh` runs with
  /// `--metric mallocCountTotal --metric instructions`), so wall and CPU time never gate.
  ///
  /// Exact allocations are allowed ``harnessAllocationSlack`` either way, nearly exact ones 5%;
  /// varying ones are not stored.
  static func thresholds(_ allocations: Workload.Allocations) -> [BenchmarkMetric: BenchmarkThresholds] {
    switch allocations {
    case .exact:
      [
        .mallocCountTotal: .init(absolute: [.p90: harnessAllocationSlack]),
        .instructions: .init(relative: [.p90: 2]),
      ]
    case .nearlyExact, .varying:
      [
        .mallocCountTotal: .init(relative: [.p90: 5]),
        .instructions: .init(relative: [.p90: 5]),
      ]
    }
  }
}
