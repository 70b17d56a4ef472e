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
    configuration.thresholds = Self.thresholds(for: workload)
    return configuration
  }

  /// The tolerances `swift package benchmark thresholds check` applies to the stored p90 values
  /// (`Thresholds/`). Only the deterministic metrics are stored there (`thresholds.sh` runs with
  /// `--metric mallocCountTotal --metric instructions`), so wall and CPU time never gate.
  ///
  /// Allocations may differ by a tenth of one per operation, either way (100 at 1,000
  /// operations). A regression of ours allocates per operation, so one more allocation each
  /// exceeds this tenfold; what stays under it is not ours: the harness's own allocations, which
  /// CI's machine counted 1 or 2 more of on every benchmark, and, where the work starts tasks, what
  /// the runtime allocates depending on which thread runs a job (133 to 199 at 1,000 awaited
  /// steps, in runs here with both cores busy). Workloads whose allocations vary more are not
  /// stored.
  static func thresholds(for workload: Workload) -> [BenchmarkMetric: BenchmarkThresholds] {
    let relativeInstructions = workload.allocations == .exact ? 2.0 : 5.0
    return [
      .mallocCountTotal: .init(absolute: [.p90: max(workload.size / 10, 1)]),
      .instructions: .init(relative: [.p90: relativeInstructions]),
    ]
  }
}
