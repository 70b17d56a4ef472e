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
      await withVirtualTime { _ in seen.insert(await runThreeTasks()) }
    }
    #expect(seen.allSatisfy { $0.hasPrefix("a1 ") })
  }

  @MainActor @Test func theFirstFailingRunStopsTheExplorationAndNamesItsSchedule() async {
    var runs = 0
    var failingOrder = ""
    let line = #line + 3
    await withKnownIssue {
      let issues = await withCapturedIssues {
        await withVirtualTime(exploring: .randomWalk(runs: 100)) { _ in
          runs += 1
          let order = await runThreeTasks()
          failingOrder = order
          #expect(order.hasPrefix("a1 "))
        }
      }.issues
      #expect(issues.count == 1)
      #expect(issues.first?.line == line)
      #expect(issues.first?.kind == .failingSchedule)
      print(issues.first?.message ?? "")
    } matching: { issue in
      issue.reportKind == nil
    }
    #expect(runs < 100)
    print(runs, failingOrder)
  }
}
