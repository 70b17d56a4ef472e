import Clocks
import ConcurrencyExtras
import Dispatch
import Effects
import EffectsTestSupport
import Foundation

// The same small test, written three ways, run as a suite runs it: many cases, in parallel where
// the way allows it, each with its own clock. It is the test a user judges a library's speed by —
// not one operation, but the whole test, scope or clock included — and the one that shows which
// way is exact.
//
//   swift run -c release --package-path Benchmarks suite [--cases 2000] [--busy]
//
// The test: a `@MainActor` search box that searches 300 ms after the last keystroke. Type, advance
// 100 ms, type again, advance 299 ms (no search yet), advance 1 ms (one search, for the second
// query). A case fails when either check does not hold. `--busy` keeps both cores busy with two
// spinning threads while the suite runs, as a CI machine running other jobs would.
//
// The three ways:
// - this library: each case in `withVirtualTime`, its box sleeping on
//   `Environment.current.continuousClock` (`DurationClock.sleep(for:)`, on the caller's actor);
//   cases run in parallel;
// - swift-clocks' `TestClock`: `await clock.advance(by:)`; cases run in parallel;
// - `TestClock` inside swift-concurrency-extras' `withMainSerialExecutor`, which makes every job
//   of the process run serially on the main thread: cases run one at a time (a suite marked
//   `.serialized`), as it requires.
//
// A last row opens and ends an empty `withVirtualTime` scope: the fixed cost of a scope (its lane
// thread, the runtime's hooks, the watchdog, the end check), which every case of the first row
// pays once.

@MainActor final class SearchBox {
  private let sleep: @MainActor (Duration) async throws -> Void
  private(set) var searches: [String] = []
  private var pending: Task<Void, Never>?

  /// A box that waits with `sleep`: each way's own call, as its users write it.
  init(sleep: @escaping @MainActor (Duration) async throws -> Void) {
    self.sleep = sleep
  }

  func type(_ query: String) {
    pending?.cancel()
    pending = Task { [sleep] in
      do { try await sleep(.milliseconds(300)) } catch { return }
      searches.append(query)
    }
  }
}

/// One case, given how the box sleeps and how to advance its clock; true when both checks hold.
@MainActor func debounceCase(
  sleep: @escaping @MainActor (Duration) async throws -> Void,
  advance: @MainActor (Duration) async -> Void
) async -> Bool {
  let box = SearchBox(sleep: sleep)
  box.type("piz")
  await advance(.milliseconds(100))
  box.type("pizza")
  await advance(.milliseconds(299))
  let nothingYet = box.searches.isEmpty
  await advance(.milliseconds(1))
  return nothingYet && box.searches == ["pizza"]
}

/// The model sleeps on `Environment.current.continuousClock`, a `DurationClock`, whose
/// `sleep(for:)` runs on the caller's actor.
@MainActor func effectsCase() async -> Bool {
  await withVirtualTime { scheduler in
    let clock = Environment.current.continuousClock
    return await debounceCase(sleep: { try await clock.sleep(for: $0) }) { await scheduler.advance(by: $0) }
  }
}

/// The model sleeps on the clock as swift-clocks' users write it: `Clock`'s `sleep(for:)`.
@MainActor func testClockCase() async -> Bool {
  let clock = TestClock()
  return await debounceCase(sleep: { try await clock.sleep(for: $0) }) { await clock.advance(by: $0) }
}

@MainActor func serialExecutorCase() async -> Bool {
  var passed = false
  await withMainSerialExecutor { @MainActor in
    passed = await testClockCase()
  }
  return passed
}

/// Runs `cases` cases of `body`, `parallel` at a time; answers how many failed and how long the
/// whole run took.
@MainActor func run(
  _ cases: Int,
  parallel: Int,
  _ body: @escaping @MainActor () async -> Bool
) async -> (failed: Int, seconds: Double) {
  let start = DispatchTime.now().uptimeNanoseconds
  var failed = 0
  var running: [Task<Bool, Never>] = []
  for _ in 0..<cases {
    if running.count == parallel, !(await running.removeFirst().value) { failed += 1 }
    running.append(Task { @MainActor in await body() })
  }
  for task in running where !(await task.value) { failed += 1 }
  return (failed, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}

let arguments = CommandLine.arguments
let cases = arguments.firstIndex(of: "--cases").flatMap { Int(arguments[$0 + 1]) } ?? 2_000
let busy = arguments.contains("--busy")
/// Whether the busy threads go on spinning: behind a lock.
final class Spinning: @unchecked Sendable {
  private let lock = NSLock()
  private var on = true

  var isOn: Bool { lock.withLock { on } }
  func stop() { lock.withLock { on = false } }
}

let spinning = Spinning()
if busy {
  for _ in 0..<2 {
    Thread.detachNewThread {
      var count = 0
      while spinning.isOn { count &+= 1 }
    }
  }
}

Task { @MainActor in
  let sides: [(String, Int, @MainActor () async -> Bool)] = [
    ("swift-effects, `withVirtualTime`, in parallel", 8, effectsCase),
    ("swift-clocks `TestClock`, in parallel", 8, testClockCase),
    ("`TestClock` in `withMainSerialExecutor`, serialized", 1, serialExecutorCase),
    // The fixed cost of a scope: opening and ending one with nothing in it.
    ("swift-effects, an empty `withVirtualTime`, in parallel", 8, { await withVirtualTime { _ in true } }),
  ]
  print("| written with | cases | failed | time of the run | per case |")
  print("| --- | ---: | ---: | ---: | ---: |")
  var inexact = 0
  for (index, (name, parallel, body)) in sides.enumerated() {
    let (failed, seconds) = await run(cases, parallel: parallel, body)
    let perCase = seconds / Double(cases) * 1e6
    print(
      "| \(name) | \(cases) | \(failed) | \(String(format: "%.2f", seconds)) s | \(String(format: "%.0f", perCase)) µs |"
    )
    if index == 0 { inexact = failed }
  }
  spinning.stop()
  // This library's cases are exact: a failure there is a bug, and fails the run.
  exit(inexact == 0 ? 0 : 1)
}
dispatchMain()
