import EffectsTestSupport
import XCTest

/// `withVirtualTime` from XCTest, on the main actor and off it: the same exactness as under Swift
/// Testing (XCTest runs async tests on its own task, and its `@MainActor` tests on the main queue).
final class VirtualTimeXCTests: XCTestCase {
  @MainActor func testAMainActorTaskThatYieldsIsWaitedFor() async {
    for _ in 0..<100 {
      let scheduler = TestScheduler()
      let model = Counter()
      await scheduler.withVirtualTime {
        let task = Task {
          for _ in 0..<3 {
            try await scheduler.sleep(for: .seconds(1))
            await Task.yield()
            model.count += 1
          }
        }
        await scheduler.advance(by: .seconds(1))
        XCTAssertEqual(model.count, 1)
        await scheduler.advance(by: .seconds(2))
        XCTAssertEqual(model.count, 3)
        _ = await task.result
      }
    }
  }

  func testANonisolatedTaskIsWaitedFor() async {
    for _ in 0..<100 {
      let scheduler = TestScheduler()
      await scheduler.withVirtualTime {
        let task = Task {
          try await scheduler.sleep(for: .seconds(1))
          await Task.yield()
          return "woke"
        }
        await scheduler.advance(by: .seconds(1))
        let value = try? await task.value
        XCTAssertEqual(value, "woke")
      }
    }
  }
}

@MainActor private final class Counter {
  var count = 0

  nonisolated init() {}
}
