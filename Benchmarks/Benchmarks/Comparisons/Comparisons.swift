import Benchmark
import Foundation

// One run, ours beside the peers and the floors on the same workloads. A benchmark is named
// `workload.size.side`: `side` is `effects` (this library), a peer (`combine-schedulers`,
// `swift-clocks`, `swift-dependencies`) or `floor` (the least the work could cost), so each table
// reads as pairs. A size is written `1e3` … `1e6` so that names sort in size order. Every
// iteration runs the whole workload once: divide by the size for a cost per operation, or compare
// two sides of one workload directly. `Benchmarks/ratios.py` prints the ratio table.
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = RunSettings.current.configuration
  callbackBenchmarks()
  callbackStepBenchmarks()
  asyncStepBenchmarks()
  sleeperBenchmarks()
  readBenchmarks()
  testDoubleBenchmarks()
}
