import EffectsTestSupport
import Foundation
import Synchronization
import Testing

/// The gallery measured: not run by default.
///
/// ```
/// ORDERING_BUGS_MEASURE=1 swift test --package-path Examples --filter OrderingBugsMeasurement
/// ```
///
/// For each shape it prints, one tab-separated line each:
/// - `DEFAULT`: how many of 2000 runs of the buggy version in the default order passed;
/// - `MEASURE`, for each strategy: the median number of runs to the first failing one over seeds
///   0 to 49 (a seed that found nothing within 1000 runs counts as more than 1000), how many of the
///   50 seeds found it within 1000 runs, and each seed's count;
/// - `FIXED`: how many runs of the fixed version passed, 1000 of each strategy from seed 0 (every
///   one must pass).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["ORDERING_BUGS_MEASURE"] == "1"))
struct OrderingBugsMeasurement {
  @Test func reentrantCache() async {
    await measure("1. reentrant cache", buggy: ReentrantCacheTests.buggy, fixed: ReentrantCacheTests.fixed)
  }

  @Test func checkThenAct() async {
    await measure("2. check-then-act", buggy: CheckThenActTests.buggy, fixed: CheckThenActTests.fixed)
  }

  @MainActor @Test func lostUpdate() async {
    await measure("3. lost update", buggy: LostUpdateTests.buggy, fixed: LostUpdateTests.fixed)
  }

  @MainActor @Test func cancellationBetweenSteps() async {
    await measure(
      "4. cancellation between steps",
      buggy: CancellationBetweenStepsTests.buggy,
      fixed: CancellationBetweenStepsTests.fixed
    )
  }

  @Test func doubleResume() async {
    await measure("5. double resume", buggy: DoubleResumeTests.buggy, fixed: DoubleResumeTests.fixed)
  }

  @MainActor @Test func taskOutlivesStop() async {
    await measure("6. task outlives stop()", buggy: TaskOutlivesStopTests.buggy, fixed: TaskOutlivesStopTests.fixed)
  }

  @MainActor @Test func staleResult() async {
    await measure("7. stale result", buggy: StaleResultTests.buggy, fixed: StaleResultTests.fixed)
  }

  @MainActor @Test func debounceCancel() async {
    await measure("8. debounce vs cancel", buggy: DebounceCancelTests.buggy, fixed: DebounceCancelTests.fixed)
  }
}

/// The strategies measured, by name, each from a seed.
private let measured: [(name: String, exploration: @Sendable (UInt64) -> Exploration)] = [
  ("random walk", { .randomWalk(runs: maximumRuns, seed: $0) }),
  ("PCT d=1", { .pct(depth: 1, runs: maximumRuns, seed: $0) }),
  ("PCT d=2", { .pct(depth: 2, runs: maximumRuns, seed: $0) }),
  ("PCT d=3", { .pct(depth: 3, runs: maximumRuns, seed: $0) }),
]

private let seeds: Range<UInt64> = 0..<50
private let maximumRuns = 1000
private let defaultRuns = 2000

private func measure(
  _ shape: String,
  isolation: isolated (any Actor)? = #isolation,
  buggy: (TestScheduler) async -> Void,
  fixed: (TestScheduler) async -> Void
) async {
  var passed = 0
  for _ in 0..<defaultRuns {
    if await passes(isolation: isolation, { await withVirtualTime(isolation: isolation) { await buggy($0) } }) {
      passed += 1
    }
  }
  print("DEFAULT\t\(shape)\t\(passed)/\(defaultRuns)")
  #expect(passed == defaultRuns, "the buggy version fails in the default order")

  for (name, exploration) in measured {
    var counts: [Int?] = []
    for seed in seeds {
      counts.append(await runsToFind(exploring: exploration(seed), isolation: isolation, buggy))
    }
    let found = counts.compactMap { $0 }
    // Not found within the runs: more than any count found.
    let sorted = counts.map { $0 ?? Int.max }.sorted()
    let middle = [sorted[(sorted.count - 1) / 2], sorted[sorted.count / 2]]
    let median =
      middle.contains(Int.max)
      ? ">\(maximumRuns)" : String(format: "%g", Double(middle[0] + middle[1]) / 2)
    let each = counts.map { $0.map(String.init) ?? "-" }.joined(separator: ",")
    print("MEASURE\t\(shape)\t\(name)\t\(median)\t\(found.count)/\(seeds.count)\t\(each)")
  }

  var clean = 0
  for (_, exploration) in measured {
    var runs = 0
    let passed = await passes(isolation: isolation) {
      await withVirtualTime(exploring: exploration(0), isolation: isolation) { scheduler in
        runs += 1
        await fixed(scheduler)
      }
    }
    #expect(passed && runs == maximumRuns, "the fixed version failed in run \(runs)")
    if passed { clean += runs }
  }
  print("FIXED\t\(shape)\t\(clean)/\(measured.count * maximumRuns)")
}

/// Whether `body` ran without an issue; its issues are known ones here, counted, not reported.
private func passes(isolation: isolated (any Actor)? = #isolation, _ body: () async -> Void) async -> Bool {
  let failed = Mutex(false)
  await withKnownIssue(isIntermittent: true, isolation: isolation) {
    await body()
  } matching: { _ in
    failed.withLock { $0 = true }
    return true
  }
  return !failed.withLock { $0 }
}
