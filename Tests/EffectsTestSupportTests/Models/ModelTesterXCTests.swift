import Effects
import EffectsTestSupport
import XCTest

/// `ModelTester` from XCTest: a model's steps stated in an async test case, and its failures
/// recorded on the case, at the test's lines, with the exact text.
final class ModelTesterXCTests: FailureCapturingTestCase {
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @MainActor func testATaskThatLoadsIsStatedStepByStep() async {
    await withVirtualTime { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      model.refreshTapped()
      await tester.assert {
        $0.isLoading = true
        $0.refreshes = 1
      }
      await tester.advance(by: .seconds(1))
      await tester.assert {
        $0.items = ["a", "b"]
        $0.isLoading = false
      }
      tester.assertEffects([.track(event: "refreshed", properties: ["count": "2"])])
      await tester.finish()
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @MainActor func testAnIntermediateStateNotStatedFailsTheCaseAtTheAssert() async {
    var line = 0
    let failures = await capturingAsyncFailures {
      await withVirtualTime { _ in
        let model = FeedModel()
        let tester = ModelTester(model)
        model.refreshTapped()
        await tester.advance(by: .seconds(1))
        line = #line + 1
        await tester.assert {
          $0.items = ["a", "b"]
          $0.refreshes = 1
        }
        await tester.skipChanges()
        await tester.finish()
      }
    }
    XCTAssertEqual(
      failures,
      [
        Failure(
          message: """
            ModelTester.assert(_:) found the change stated made in 2 steps, each of which a screen could \
            show:
              at .seconds(0), by the task started at EffectsTestSupportTests/Models.swift:53:
                isLoading: false → true
                refreshes: 0 → 1
              at .seconds(1), by the task started at EffectsTestSupportTests/Models.swift:53:
                items: [] → ["a", "b"]
                isLoading: true → false
            State each with an await tester.assert { $0 … } of its own, in order, or fix the model.
            """,
          file: #filePath,
          line: line
        )
      ]
    )
    XCTAssertEqual(failures.map(\.kind), [.stateMismatch])
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @MainActor func testAChangeAfterFinishFailsTheCaseAtFinish() async {
    var line = 0
    let failures = await capturingAsyncFailures {
      await withVirtualTime { _ in
        let model = FeedModel()
        let tester = ModelTester(model)
        line = #line + 1
        await tester.finish()
        model.count = 7
      }
    }
    XCTAssertEqual(
      failures,
      [
        Failure(
          message: """
            ModelTester: the model changed after finish(), when the test had ended:
              at .seconds(0), by the test:
                count: 0 → 7
            Let the work that changes the model end before finish(), or cancel it there.
            """,
          file: #filePath,
          line: line
        )
      ]
    )
    XCTAssertEqual(failures.map(\.kind), [.leftoverWork])
  }
}
