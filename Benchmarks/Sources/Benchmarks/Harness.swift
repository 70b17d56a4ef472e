import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One row of the report: an operation, how many times one run performs it, and DESIGN's target.
struct Benchmark {
  var name: String
  /// Operations per run; the row reports elapsed time divided by this.
  var operations: Int
  /// The target in nanoseconds per operation, if DESIGN sets one for this row.
  var targetNanoseconds: Double?
  /// Prepares one run (outside the timing) and returns the timed part.
  var prepare: () -> () -> Void

  init(_ name: String, operations: Int, target: Double? = nil, prepare: @escaping () -> () -> Void) {
    self.name = name
    self.operations = operations
    self.targetNanoseconds = target
    self.prepare = prepare
  }
}

/// Keeps a value alive so the optimizer cannot drop the work that produced it.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}

/// A deterministic random number generator (SplitMix64), so every run schedules the same work.
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

/// Runs each benchmark `runs` times and prints the median nanoseconds per operation, both as
/// wall-clock time and as CPU time of the process (the verdict uses CPU time: on a shared machine
/// wall-clock time also counts the time other processes held the cores).
func report(_ benchmarks: [Benchmark], runs: Int) {
  print("| what | ops/run | median ns/op (CPU) | median ns/op (wall) | target | |")
  print("|---|---:|---:|---:|---:|---|")
  for benchmark in benchmarks {
    var cpu: [Double] = []
    var wall: [Double] = []
    // One warm-up run, then the measured ones.
    benchmark.prepare()()
    for _ in 0..<runs {
      let body = benchmark.prepare()
      let cpuStart = processCPUTime()
      let wallStart = DispatchTime.now().uptimeNanoseconds
      body()
      let wallEnd = DispatchTime.now().uptimeNanoseconds
      let cpuEnd = processCPUTime()
      cpu.append(Double(cpuEnd - cpuStart) / Double(benchmark.operations))
      wall.append(Double(wallEnd - wallStart) / Double(benchmark.operations))
    }
    let medianCPU = median(cpu)
    let target = benchmark.targetNanoseconds.map { "≤ \(format($0))" } ?? ""
    let verdict = benchmark.targetNanoseconds.map { medianCPU <= $0 ? "ok" : "MISSED" } ?? ""
    print(
      "| \(benchmark.name) | \(benchmark.operations) | \(format(medianCPU)) | \(format(median(wall))) | \(target) | \(verdict) |"
    )
  }
}

private func median(_ samples: [Double]) -> Double {
  samples.sorted()[samples.count / 2]
}

/// CPU time used by every thread of this process so far, in nanoseconds.
private func processCPUTime() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

private func format(_ nanoseconds: Double) -> String {
  nanoseconds >= 100 ? String(Int(nanoseconds.rounded())) : String(Double(Int(nanoseconds * 10)) / 10)
}
