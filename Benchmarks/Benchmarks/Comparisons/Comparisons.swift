import Benchmark
import Workloads

// One run, ours beside the peers and the floors on the same workloads (`Workload.all`, named
// `workload.size.side` so each table reads as pairs). Every iteration runs the whole workload
// once: divide by the size for a cost per operation, or compare two sides of one workload
// directly. `Benchmarks/ratios.py` prints the ratio table.
let benchmarks: @Sendable () -> Void = {
  let settings = RunSettings.current
  Benchmark.defaultConfiguration = settings.configuration
  for workload in Workload.all where settings.runs(workload) {
    let configuration = settings.configuration(for: workload)
    switch workload.body {
    case .sync(let body):
      Benchmark(workload.name, configuration: configuration) { _ in body() }
    case .async(let body):
      Benchmark(workload.name, configuration: configuration) { _ in await body() }
    }
  }
}
