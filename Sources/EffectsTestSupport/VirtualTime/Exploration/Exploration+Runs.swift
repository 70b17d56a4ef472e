import Effects
import Foundation
import Testing
import XCTest

extension Exploration {
  /// Runs an explored test: `runOnce` opens one virtual-time scope on a fresh scheduler, its jobs
  /// ordered by the chooser it is given, and runs the test's body in it. Run after run, until one
  /// fails (its schedule is then reported at `site`, with the line that replays it) or all pass.
  /// Returns the last run's result. A run whose scope could not open explores nothing: it is the
  /// only run (the scope said why).
  func run<R, Failure: Error>(
    at site: FailureLocation,
    isolation: isolated (any Actor)? = #isolation,
    _ runOnce: (Locked<ScheduleChooser?>) async -> Result<R, Failure>
  ) async -> Result<R, Failure> {
    if let problem {
      site.report(problem, kind: .invalidArgument)
      return await runOnce(Locked(nil))
    }
    switch plan {
    case .replay(let text):
      // `problem` is nil: the text spells a schedule.
      guard let recorded = Schedule(text) else { return await runOnce(Locked(nil)) }
      let box = Locked<ScheduleChooser?>(ScheduleChooser(strategy: recorded.strategy, seed: recorded.seed))
      let result = await runOnce(box)
      if let chosen = box.withLock({ $0 }), chosen.ran, Schedule(of: chosen) != recorded {
        site.report(
          ExplorationWording.scheduleNoLongerFits(recorded, now: Schedule(of: chosen), exploring: self),
          kind: .scheduleMismatch
        )
      }
      return result
    case .explore(let strategy, let runs, let seed):
      // PCT spreads its change points over the turns with a choice a run makes: unknown before
      // the first run, then the most any run has made.
      var steps = Self.firstSteps
      var last: Result<R, Failure>?
      for run in 1...runs {
        let chooser = ScheduleChooser(
          strategy: strategy.chooserStrategy(steps: steps),
          seed: Self.seed(ofRun: run, from: seed)
        )
        let box = Locked<ScheduleChooser?>(chooser)
        let (result, failed, cancelled) = await Self.observingFailures { await runOnce(box) }
        last = result
        guard let chosen = box.withLock({ $0 }), chosen.ran else { return result }
        // A test cancelled (its time limit, `Test.cancel()`) or skipped (`XCTSkip`) stops: what
        // failed then is the stop, not an order.
        if cancelled || Self.isSkip(result) { return result }
        let runFailed = failed || chosen.failureReported
        steps = run == 1 ? max(chosen.choices, 1) : max(steps, chosen.choices)
        let threw = if case .failure = result { true } else { false }
        if runFailed || threw {
          site.report(
            ExplorationWording.failingSchedule(
              Schedule(of: chosen),
              run: run,
              of: runs,
              exploring: self,
              workFromOutside: chosen.workFromOutside
            ),
            kind: .failingSchedule
          )
          return result
        }
      }
      // `runs` is at least 1: `problem` said so otherwise.
      return last!
    }
  }

  /// PCT's estimate of a first run's turns with a choice.
  static let firstSteps = 8

  /// Runs `body`, and says whether the test recorded a failure meanwhile: in Swift Testing, an
  /// issue of the test (seen as it is recorded, and recorded as ever); in XCTest, a failure of the
  /// running case. Outside a test nothing can fail.
  ///
  /// A report of this library counts too, wherever it went (a test that captures it included), when
  /// the run's task or a task of its scope raised it: see ``noteFailure()``.
  static func observingFailures<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async -> T
  ) async -> (T, failed: Bool, cancelled: Bool) {
    let failed = Locked(false)
    if Test.current != nil {
      var value: T?
      // Read in the body too: the known-issue scope may run it as a task of its own.
      var cancelled = false
      await Self.$runFailed.withValue(failed) {
        await withKnownIssue(isIntermittent: true, isolation: isolation) {
          value = await body()
          cancelled = Task.isCancelled
        } matching: { issue in
          if Self.isFailure(issue) { failed.withLock { $0 = true } }
          return false
        }
      }
      // The body returns a value and throws nothing: the known-issue scope always runs it through.
      return (value!, failed.withLock { $0 }, cancelled || Task.isCancelled)
    }
    let before = XCTestCaseObserver.shared.failuresRecorded
    let value = await Self.$runFailed.withValue(failed) { await body() }
    return (value, failed.withLock { $0 } || XCTestCaseObserver.shared.failuresRecorded != before, Task.isCancelled)
  }

  /// Whether `issue` fails its test: a warning does not.
  private static func isFailure(_ issue: Issue) -> Bool {
    #if compiler(>=6.3)
    issue.isFailure
    #else
    true
    #endif
  }

  /// Whether `result` is a test skipped by throwing `XCTSkip`.
  private static func isSkip<R, Failure>(_ result: Result<R, Failure>) -> Bool {
    guard case .failure(let error) = result else { return false }
    return error is XCTSkip
  }

  /// Whether the explored run the current task belongs to has failed.
  @TaskLocal private static var runFailed: Locked<Bool>?

  /// Notes that this library reported a failure: the explored run whose task (or a task it
  /// started) raised it has failed, and so has the run whose scope runs the task raising it (a
  /// detached task of the test, which carries no task-local).
  static func noteFailure() {
    runFailed?.withLock { $0 = true }
    guard #available(EffectsVirtualTime , *) else { return }
    VirtualExecutor.current?.noteFailureReported()
  }
}

extension Exploration.Strategy {
  func chooserStrategy(steps: Int) -> ScheduleChooser.Strategy {
    switch self {
    case .randomWalk: .randomWalk
    case .pct(let depth): .pct(depth: depth, steps: min(max(steps, 1), Exploration.maximumSteps))
    }
  }
}
