import Dispatch
import Foundation
import Workloads

// `Profile <workload> [runs]`: runs one workload outside the benchmark harness, for
// `valgrind --tool=callgrind`, whose instruction counts repeat from run to run (valgrind cannot run
// the harness itself). `python3 Benchmarks/profile.py <workload>` builds it, runs it under
// callgrind and prints the instructions per operation, function by function.
//
// The workload runs once to warm up, then `runs` times (1 by default), on a global queue's thread,
// while the main thread's run loop serves the main actor. (valgrind 3.19 crashes on
// `dispatchMain()`, on an async `main`, and on `Thread.detachNewThread`.)

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let workload = Workload.all.first(where: { $0.name == name }) else {
  print("usage: Profile <workload> [runs]; workloads:")
  for workload in Workload.all { print("  \(workload.name)") }
  exit(64)
}
let runs = arguments.count > 1 ? Int(arguments[1]) ?? 1 : 1

DispatchQueue.global().async {
  for _ in 0...runs { Profiler.run(workload) }
  exit(0)
}
while true {
  _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.1))
}

enum Profiler {
  /// Runs `workload` once on this thread, waiting for it if it is async.
  @inline(never)
  static func run(_ workload: Workload) {
    switch workload.body {
    case .sync(let body):
      body()
    case .async(let body):
      let done = DispatchSemaphore(value: 0)
      Task.detached {
        await body()
        done.signal()
      }
      done.wait()
    }
  }
}
