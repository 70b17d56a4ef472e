import Effects
@testable import EffectsTestSupport
import Foundation
import Testing

@Suite struct ExplorationTests {
  @MainActor func orders(_ exploration: Exploration) async -> [String] {
    var seen: [String] = []
    await withVirtualTime(exploring: exploration) { _ in
      seen.append(await runThreeTasks())
    }
    return seen
  }

  @MainActor @Test func aRandomWalkRunsTheTestInManyOrdersTheSameEachTime() async {
    let first = await orders(.randomWalk(runs: 200))
    let second = await orders(.randomWalk(runs: 200))
    #expect(first.count == 200)
    #expect(Set(first).count >= 20)
    #expect(first == second)
    let other = await orders(.randomWalk(runs: 200, seed: 7))
    #expect(other != first)
  }

  @MainActor @Test func pctRunsTheTestInManyOrdersTheSameEachTime() async {
    let first = await orders(.pct(depth: 2, runs: 200))
    #expect(Set(first).count >= 20)
    #expect(first == (await orders(.pct(depth: 2, runs: 200))))
  }

  @MainActor @Test func withoutExplorationTheOrderIsTheDefaultOne() async {
    var seen: Set<String> = []
    for _ in 0..<50 {
      await withVirtualTime { _ in _ = seen.insert(await runThreeTasks()) }
    }
    #expect(seen.allSatisfy { $0.hasPrefix("a1 ") })
  }

  /// Explores `runThreeTasks` until `a1` does not come first, and answers the report, the number of
  /// runs, and the order that failed.
  @MainActor func findFailure(
    _ exploration: Exploration,
    line: Int = #line
  ) async -> (issues: [CapturedIssue], runs: Int, order: String) {
    var runs = 0
    var order = ""
    var issues: [CapturedIssue] = []
    await withKnownIssue {
      issues = await withCapturedIssues {
        await withVirtualTime(exploring: exploration, line: UInt(line)) { _ in
          runs += 1
          order = await runThreeTasks()
          #expect(order.hasPrefix("a1 "))
        }
      }.issues
    } matching: { issue in
      issue.reportKind == nil
    }
    return (issues, runs, order)
  }

  /// The schedule a failing-schedule report names.
  func schedule(in report: String) -> String? {
    guard let start = report.range(of: "order of schedule \"")?.upperBound,
      let end = report[start...].firstIndex(of: "\"")
    else { return nil }
    return String(report[start..<end])
  }

  @MainActor @Test func theFirstFailingRunStopsTheExplorationAndNamesItsScheduleAndReplay() async {
    let line = #line + 1
    let found = await findFailure(.randomWalk(runs: 100))
    #expect(found.runs == 2)
    #expect(found.order == "b1 b2 c a1 a2")
    #expect(found.issues.map(\.kind) == [.failingSchedule])
    #expect(
      found.issues == [
        CapturedIssue(
          """
          Exploring the order of this test's jobs (.randomWalk(runs: 100, seed: 0)) found a failure \
          in run 2 of 100: what failed above failed in the order of schedule \
          "random-3c5b66874b9e8a84-7-13b7a3c6". Run 1 passed. Replay that order, the same every \
          time, while you fix the bug: in place of .randomWalk(runs: 100, seed: 0), write
              .replay("random-3c5b66874b9e8a84-7-13b7a3c6")
          as in @Test(.virtualTime(exploring: .replay(…))) or withVirtualTime(exploring: .replay(…)).
          """,
          line: line
        )
      ]
    )
  }

  @MainActor @Test func pctFindsTheFailureAndNamesItsDepthAndSteps() async {
    let found = await findFailure(.pct(depth: 2, runs: 100, seed: 3))
    #expect(found.issues.map(\.kind) == [.failingSchedule])
    let text = found.issues.first.flatMap { schedule(in: $0.message) } ?? ""
    #expect(text.hasPrefix("pct2."))
    #expect(!found.order.hasPrefix("a1 "))
  }

  @MainActor
  @Test(arguments: [Exploration.randomWalk(runs: 100, seed: 11), .pct(depth: 2, seed: 5), .pct(depth: 3, seed: 9)])
  func aReplayRunsTheFailingOrderEveryTime(_ exploration: Exploration) async {
    let found = await findFailure(exploration)
    guard let text = found.issues.first.flatMap({ schedule(in: $0.message) }) else {
      Issue.record("no schedule in \(found.issues)")
      return
    }
    var orders: [String] = []
    for _ in 0..<100 {
      let replayed = await findFailure(.replay(text))
      #expect(replayed.issues.isEmpty)
      #expect(replayed.runs == 1)
      orders.append(replayed.order)
    }
    #expect(orders == Array(repeating: found.order, count: 100))
  }

  @MainActor @Test func aScheduleThatNoLongerFitsTheTestIsSaid() async {
    let found = await findFailure(.randomWalk(runs: 100))
    let text = schedule(in: found.issues.first?.message ?? "") ?? ""
    let line = #line + 2
    let issues = await withCapturedIssues {
      await withVirtualTime(exploring: .replay(text)) { _ in
        let backend = ExploredBackend()
        let a = Task { @MainActor in _ = await backend.fetch(1) }
        let b = Task { @MainActor in _ = await backend.fetch(2) }
        await a.value
        await b.value
      }
    }.issues
    #expect(issues.map(\.kind) == [.scheduleMismatch])
    #expect(
      issues == [
        CapturedIssue(
          """
          Schedule "random-3c5b66874b9e8a84-7-13b7a3c6" does not fit this test: it was recorded \
          with 7 choices between ready jobs, and the test now makes 5. Either the test's jobs have \
          changed since the schedule was found (an await, a task more or less), or the schedule was \
          not copied whole from the report that found it: this run followed another order, and says \
          nothing about the failure the schedule was found with. Copy it again, or explore again to \
          find the order that fails now: .virtualTime(exploring: .randomWalk()), or \
          withVirtualTime(exploring: .randomWalk()).
          """,
          line: line
        )
      ]
    )
  }

  @MainActor @Test func aScheduleWithTheSameChoicesButOthersIsSaid() async {
    // The hash is the recorded one's, changed: the same count of choices, other ones.
    let line = #line + 2
    let issues = await withCapturedIssues {
      await withVirtualTime(exploring: .replay("random-3c5b66874b9e8a84-7-00000000")) { _ in
        _ = await runThreeTasks()
      }
    }.issues
    #expect(issues.map(\.kind) == [.scheduleMismatch])
    #expect(
      issues.first?.message.hasPrefix(
        """
        Schedule "random-3c5b66874b9e8a84-7-00000000" does not fit this test: the test made 7 \
        choices between ready jobs, as recorded, but not the same ones.
        """
      ) == true
    )
    #expect(issues.first?.line == line)
  }

  @MainActor
  @Test(arguments: [
    ("nonsense", "\"nonsense\" is not a schedule"),
    ("random-3c5b-7-13b7a3c6", "\"random-3c5b-7-13b7a3c6\" is not a schedule"),
    ("pct0.5-3c5b66874b9e8a84-7-13b7a3c6", "\"pct0.5-3c5b66874b9e8a84-7-13b7a3c6\" is not a schedule"),
    ("random-3c5b66874b9e8a84--1-13b7a3c6", "\"random-3c5b66874b9e8a84--1-13b7a3c6\" is not a schedule"),
    ("random-3c5b66874b9e8a84-7-13b7a3c6 x", "\"random-3c5b66874b9e8a84-7-13b7a3c6 x\" is not a schedule"),
    ("RANDOM-3C5B66874B9E8A84-7-13B7A3C6", "\"RANDOM-3C5B66874B9E8A84-7-13B7A3C6\" is not a schedule"),
    ("random-+c5b66874b9e8a84-7-13b7a3c6", "\"random-+c5b66874b9e8a84-7-13b7a3c6\" is not a schedule"),
    ("random-\u{202E}c5b66874b9e8a84-7-13b7a3c6", "\"random-\\u{202E}c5b66874b9e8a84-7-13b7a3c6\" is not a schedule"),
  ])
  func aMalformedScheduleIsSaidAndTheTestRunsOnceInTheDefaultOrder(_ text: String, start: String) async {
    var runs = 0
    let line = #line + 2
    let issues = await withCapturedIssues {
      await withVirtualTime(exploring: .replay(text)) { _ in
        runs += 1
        _ = await runThreeTasks()
      }
    }.issues
    #expect(runs == 1)
    #expect(issues.map(\.kind) == [.invalidArgument])
    #expect(issues.map(\.line) == [line])
    #expect(
      issues.first?.message
        == start + """
          : .replay(_:) takes the text a failing exploration reported, as \
          "pct2.40-9e3779b97f4a7c15-12-5d0c81f3" or "random-9e3779b97f4a7c15-12-5d0c81f3". Copy it \
          whole from that report. The test ran once, in the default order.
          """
    )
  }

  @MainActor @Test func aHugeMalformedScheduleIsShownCut() async {
    let text = String(repeating: "x", count: 100_000)
    let issues = await withCapturedIssues {
      await withVirtualTime(exploring: .replay(text)) { _ in }
    }.issues
    #expect(issues.first?.message.hasPrefix("\"" + String(repeating: "x", count: 80) + "…\" is not a schedule") == true)
    #expect((issues.first?.message.count ?? .max) < 400)
  }

  @MainActor
  @Test(arguments: [
    (
      Exploration.randomWalk(runs: 0),
      ".randomWalk(runs: 0, seed: 0) cannot run: runs is 0, and must be from 1 to 1000000."
    ),
    (
      .pct(depth: 0),
      ".pct(depth: 0, runs: 100, seed: 0) cannot run: depth is 0, and must be from 1 to 16 (the orderings that must line up for the bug to show: 2 finds most)."
    ),
    (
      .pct(depth: 2, runs: -5),
      ".pct(depth: 2, runs: -5, seed: 0) cannot run: runs is -5, and must be from 1 to 1000000."
    ),
  ])
  func badArgumentsAreSaidAndTheTestRunsOnce(_ exploration: Exploration, message: String) async {
    var runs = 0
    let line = #line + 2
    let issues = await withCapturedIssues {
      await withVirtualTime(exploring: exploration) { _ in runs += 1 }
    }.issues
    #expect(runs == 1)
    #expect(issues == [CapturedIssue(message + " The test ran once, in the default order.", line: line)])
    #expect(issues.map(\.kind) == [.invalidArgument])
  }

  @MainActor @Test func aPassingExplorationRunsEveryRunAndSaysNothing() async {
    var runs = 0
    let issues = await withCapturedIssues {
      await withVirtualTime(exploring: .pct(depth: 3, runs: 150)) { _ in
        runs += 1
        let order = await runThreeTasks()
        #expect(order.split(separator: " ").count == 5)
      }
    }.issues
    #expect(runs == 150)
    #expect(issues.isEmpty)
  }

  @MainActor @Test func aThrownErrorFailsTheRunAndIsRethrown() async {
    struct Broke: Error {}
    var runs = 0
    let line = #line + 5
    var result: Result<Int, Broke> = .success(0)
    let issues = await withCapturedIssues {
      do throws(Broke) {
        result = .success(
          try await withVirtualTime(exploring: .randomWalk(runs: 100)) { _ throws(Broke) -> Int in
            runs += 1
            if await runThreeTasks().hasPrefix("b1") { throw Broke() }
            return runs
          }
        )
      } catch {
        result = .failure(error)
      }
    }.issues
    #expect(throws: Broke.self) { try result.get() }
    #expect(issues.map(\.kind) == [.failingSchedule])
    #expect(issues.map(\.line) == [line])
    #expect(runs == 2)
  }

  @Test func theTraitExploresEachRunInAFreshEnvironmentAndNamesTheFailingSchedule() async throws {
    let test = try #require(Test.current)
    let runs = Locked(0)
    // The schedulers themselves, kept alive: a freed one's address may be the next one's.
    let schedulers = Locked<[TestScheduler]>([])
    let trait = VirtualTimeTrait.virtualTime(exploring: .randomWalk(runs: 30))
    var issues: [CapturedIssue] = []
    await withKnownIssue {
      issues = await withCapturedIssues {
        try? await trait.provideScope(for: test, testCase: Test.Case.current) {
          runs.withLock { $0 += 1 }
          schedulers.withLock { $0.append(TestScheduler.current) }
          let order = await runThreeTasks()
          #expect(order.hasPrefix("a1 "))
        }
      }.issues
    } matching: { issue in
      issue.reportKind == nil
    }
    #expect(runs.withLock { $0 } == 2)
    let made = schedulers.withLock { $0 }
    #expect(made.count == 2)
    #expect(made.first !== made.last)
    #expect(issues.map(\.kind) == [.failingSchedule])
    #expect(issues.map(\.line) == [test.sourceLocation.line])
  }

  @MainActor @Test func workFromOutsideTheScopeIsSaidOnceWithTheFailingSchedule() async {
    var runs = 0
    let issues = await withCapturedIssues {
      await withVirtualTime(exploring: .randomWalk(runs: 50)) { _ in
        runs += 1
        let task = Task {
          await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { continuation.resume() }
          }
        }
        await task.value
      }
    }.issues
    // The thread may resume the task before it suspends, and then nothing came from outside: the
    // first run whose resumption did come from outside fails.
    #expect(runs >= 1)
    #expect(issues.last?.kind == .failingSchedule)
    #expect(issues.dropLast().allSatisfy { $0.kind == .inexactTime } && issues.count >= 2)
    #expect(
      issues.last?.message.hasSuffix(
        """
        Some of this run's work came from outside the test's scope (reported above: a real sleep, \
        I/O, another thread, an executor of your own). Its order is not chosen by the seed, so a \
        replay may not fail the same way until that work runs on the test's time.
        """
      ) == true
    )
  }

  @MainActor @Test func anExplorationInsideAnotherScopeRunsOnceInItAndSaysSo() async {
    var runs = 0
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        await withVirtualTime(exploring: .randomWalk(runs: 10)) { _ in
          runs += 1
          _ = await runThreeTasks()
        }
      }
    }.issues
    #expect(runs == 1)
    #expect(issues.map(\.kind) == [.nestedScope])
  }

  @Test func aYieldInsideAnActorIsAPointWhereTheOrderChanges() async {
    var orders = Set<String>()
    let issues = await withCapturedIssues {
      await withVirtualTime(exploring: .randomWalk(runs: 100)) { _ in
        let worker = HalfwayYielder()
        async let first: Void = worker.work("a")
        async let second: Void = worker.work("b")
        _ = await (first, second)
        orders.insert(await worker.log.joined(separator: " "))
      }
    }.issues
    #expect(issues.isEmpty)
    #expect(orders == ["a1 a2 b1 b2", "a1 b1 a2 b2", "a1 b1 b2 a2", "b1 a1 a2 b2", "b1 a1 b2 a2", "b1 b2 a1 a2"])
  }

  @MainActor @Test func aScheduleCopiedWithSpacesAroundItReplays() async {
    let replayed = await findFailure(.replay("  random-3c5b66874b9e8a84-7-13b7a3c6\n"))
    #expect(replayed.issues.isEmpty)
    #expect(replayed.order == "b1 b2 c a1 a2")
  }

  #if compiler(>=6.3)
  @Test func aWarningDoesNotFailARun() async {
    var runs = 0
    await withKnownIssue {
      await withVirtualTime(exploring: .randomWalk(runs: 10)) { _ in
        runs += 1
        _ = await runThreeTasks()
        Issue.record("a warning", severity: .warning)
      }
    } matching: { issue in
      issue.severity == .warning
    }
    #expect(runs == 10)
  }
  #endif

  @Test func aCancelledTestStopsExploringAndNamesNoSchedule() async {
    var runs = 0
    var thrown: (any Error)?
    let issues = await withCapturedIssues {
      do {
        try await withVirtualTime(exploring: .randomWalk(runs: 50)) { _ in
          runs += 1
          if runs == 3 { withUnsafeCurrentTask { $0?.cancel() } }
          _ = await runThreeTasks()
          try Task.checkCancellation()
        }
      } catch {
        thrown = error
      }
    }.issues
    #expect(runs == 3)
    #expect(thrown is CancellationError)
    #expect(issues.isEmpty)
  }
}
