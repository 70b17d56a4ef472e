import Effects
import EffectsTestSupport
import XCTest

/// Exploration from XCTest: `withVirtualTime(exploring:)` in an async case, its runs until one
/// fails, and the failing schedule recorded on the case at the test's line, with the exact text.
final class ExplorationXCTests: FailureCapturingTestCase {
  struct Broke: Error {}

  @MainActor func testAPassingExplorationRunsEveryRunAndRecordsNothing() async {
    var runs = 0
    let failures = await capturingAsyncFailures {
      await withVirtualTime(exploring: .pct(depth: 2, runs: 120)) { _ in
        runs += 1
        _ = await runThreeTasks()
      }
    }
    XCTAssertEqual(runs, 120)
    XCTAssertEqual(failures, [])
  }

  @MainActor func testAFailingRunStopsTheExplorationAndItsScheduleIsRecordedAtTheTestsLine() async {
    var runs = 0
    var thrown: (any Error)?
    let line = #line + 3
    let failures = await capturingAsyncFailures {
      do {
        try await withVirtualTime(exploring: .randomWalk(runs: 100)) { _ throws(Broke) in
          runs += 1
          if await runThreeTasks().hasPrefix("b1") { throw Broke() }
        }
      } catch {
        thrown = error
      }
    }
    XCTAssertEqual(runs, 2)
    XCTAssertTrue(thrown is Broke)
    XCTAssertEqual(
      failures,
      [
        Failure(
          message: """
            Exploring the order of this test's jobs (.randomWalk(runs: 100, seed: 0)) found a failure \
            in run 2 of 100: what failed above failed in the order of schedule \
            "random-3c5b66874b9e8a84-7-13b7a3c6". Run 1 passed. Replay that order, the same every \
            time, while you fix the bug: in place of .randomWalk(runs: 100, seed: 0), write
                .replay("random-3c5b66874b9e8a84-7-13b7a3c6")
            as in @Test(.virtualTime(exploring: .replay(…))) or withVirtualTime(exploring: .replay(…)).
            """,
          file: #filePath,
          line: line
        )
      ]
    )
    XCTAssertEqual(failures.map(\.kind), [.failingSchedule])
  }

  @MainActor func testAReplayRunsTheFailingOrderAgainEveryTime() async {
    var orders: Set<String> = []
    for _ in 0..<100 {
      await withVirtualTime(exploring: .replay("random-3c5b66874b9e8a84-7-13b7a3c6")) { _ in
        _ = orders.insert(await runThreeTasks())
      }
    }
    XCTAssertEqual(orders, ["b1 b2 c a1 a2"])
  }

  @MainActor func testAScheduleThatNoLongerFitsIsRecordedAtTheTestsLine() async {
    let line = #line + 2
    let failures = await capturingAsyncFailures {
      await withVirtualTime(exploring: .replay("random-3c5b66874b9e8a84-9-13b7a3c6")) { _ in
        _ = await runThreeTasks()
      }
    }
    XCTAssertEqual(failures.map(\.kind), [.scheduleMismatch])
    XCTAssertEqual(failures.map(\.line), [line])
    XCTAssertTrue(
      failures.first?.message.hasPrefix(
        """
        Schedule "random-3c5b66874b9e8a84-9-13b7a3c6" does not fit this test: it was recorded \
        with 9 choices between ready jobs, and the test now makes 7.
        """
      ) == true,
      failures.first?.message ?? ""
    )
  }
}
