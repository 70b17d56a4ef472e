import Dispatch
import Effects
import Foundation
import EffectsTestSupport

// Each DESIGN Performance figure is one row; adding a benchmark is one line in this list.
let benchmarks: [Benchmark] =
  [1_000, 10_000, 100_000, 1_000_000].map(schedulerCallbacks(count:)) + [
    schedulerSleepers(count: 10_000),
    schedulerMainActorSteps(count: 1_000),
    schedulerMainActorCallbackSteps(count: 1_000),
    environmentCurrentClock(),
    environmentCurrentClockInsideWithEnvironment(),
    spyCallRecording(),
    interpreterSetDefault(),
  ]

// `swift run -c release --package-path Benchmarks Benchmarks [filter]` runs only the rows whose name
// contains `filter`.
let filter = CommandLine.arguments.dropFirst().first
// A second argument changes the number of measured runs (7), e.g. to profile one row for longer.
let runs = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 7 : 7
// The report runs off the main thread, which serves the main queue (so `@MainActor` rows can run).
let selected = benchmarks.filter { filter == nil || $0.name.contains(filter!) }
nonisolated(unsafe) let unsafeSelected = selected
Thread.detachNewThread {
  report(unsafeSelected, runs: runs)
  exit(0)
}
dispatchMain()
