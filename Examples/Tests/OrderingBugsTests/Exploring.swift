import EffectsTestSupport
import Synchronization
import Testing

/// The two strategies each shape is explored with, from a fixed seed: the first failing run stops
/// the exploration, long before the last run.
let strategies: [Exploration] = [.randomWalk(runs: 1000, seed: 0), .pct(depth: 2, runs: 1000, seed: 0)]

/// Explores `body`'s orders as `exploration` says, where some order must fail `body`'s
/// expectations; returns the schedule the exploration's report named, for ``failures(replaying:times:isolation:_:)``.
///
/// The failure and the report are known issues here: the test fails if exploring finds nothing.
func failingSchedule(
  exploring exploration: Exploration,
  isolation: isolated (any Actor)? = #isolation,
  _ body: (TestScheduler) async -> Void
) async -> String? {
  let schedule = Mutex<String?>(nil)
  await withKnownIssue(isolation: isolation) {
    await withVirtualTime(exploring: exploration, isolation: isolation) { scheduler in await body(scheduler) }
  } matching: { issue in
    if issue.reportKind == .failingSchedule {
      schedule.withLock { $0 = replayedSchedule(in: issue) }
      return true
    }
    return issue.isExpectationFailure
  }
  return schedule.withLock { $0 }
}

/// How many of `times` replays of `schedule` failed `body`'s expectations.
func failures(
  replaying schedule: String,
  times: Int = 100,
  isolation: isolated (any Actor)? = #isolation,
  _ body: (TestScheduler) async -> Void
) async -> Int {
  var failures = 0
  for _ in 0..<times {
    let failed = Mutex(false)
    // Intermittent: a replay that passes is counted, not reported. Anything but the expectations
    // (a schedule that no longer fits, say) is not matched, and fails the test.
    await withKnownIssue(isIntermittent: true, isolation: isolation) {
      await withVirtualTime(exploring: .replay(schedule), isolation: isolation) { scheduler in await body(scheduler) }
    } matching: { issue in
      guard issue.isExpectationFailure else { return false }
      failed.withLock { $0 = true }
      return true
    }
    if failed.withLock({ $0 }) { failures += 1 }
  }
  return failures
}

/// How many runs `exploration` made before one failed `body`'s expectations (that run included);
/// nil if none did.
func runsToFind(
  exploring exploration: Exploration,
  isolation: isolated (any Actor)? = #isolation,
  _ body: (TestScheduler) async -> Void
) async -> Int? {
  var runs = 0
  let reported = Mutex<Int?>(nil)
  await withKnownIssue(isIntermittent: true, isolation: isolation) {
    await withVirtualTime(exploring: exploration, isolation: isolation) { scheduler in
      runs += 1
      await body(scheduler)
    }
  } matching: { issue in
    if issue.reportKind == .failingSchedule {
      reported.withLock { $0 = failingRun(in: issue) }
      return true
    }
    return issue.isExpectationFailure
  }
  guard let run = reported.withLock({ $0 }) else { return nil }
  #expect(run == runs, "the report names the run that failed")
  return run
}

extension Issue {
  /// Whether this is a failed `#expect`: what a scenario says when the bug shows.
  var isExpectationFailure: Bool {
    if case .expectationFailed = kind { true } else { false }
  }
}

/// The schedule in a failing-schedule report: the text of its `.replay("…")` line.
func replayedSchedule(in issue: Issue) -> String? {
  let text = issue.comments.map(\.rawValue).joined(separator: "\n")
  return text.firstMatch(of: /\.replay\("([^"]+)"\)/).map { String($0.1) }
}

/// The run a failing-schedule report names: "found a failure in run 12 of 1000".
func failingRun(in issue: Issue) -> Int? {
  let text = issue.comments.map(\.rawValue).joined(separator: "\n")
  return text.firstMatch(of: /found a failure in run (\d+) of/).flatMap { Int($0.1) }
}
