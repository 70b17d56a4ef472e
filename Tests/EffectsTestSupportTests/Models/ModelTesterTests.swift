import Effects
import Foundation
import EffectsTestSupport
import Testing

/// `ModelTester` on the models apps write: a task the model starts, an async method, a nested
/// child, values of every shape, and the world the model changes through the environment. Each
/// test states every change, and ends with `finish()`.
@MainActor
@Suite struct ModelTesterTests {
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aTaskThatLoadsIsStatedStepByStepAtItsInstants() async {
    for _ in 0..<200 {
      await withVirtualTime { scheduler in
        let model = FeedModel()
        let tester = ModelTester(model)
        model.refreshTapped()
        await tester.assert {
          $0.isLoading = true
          $0.refreshes = 1
        }
        #expect(scheduler.elapsed == .zero)
        await tester.advance(by: .seconds(1))
        await tester.assert {
          $0.items = ["a", "b"]
          $0.isLoading = false
        }
        tester.assertEffects([.track(event: "refreshed", properties: ["count": "2"])])
        await tester.finish()
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aLoadingFlagRaisedAndLoweredInOneAdvanceIsTwoSteps() async {
    await withVirtualTime { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      model.refreshTapped()
      await tester.advance(by: .seconds(1))  // the task runs from .zero to .seconds(1) in here
      await tester.assert {
        $0.isLoading = true
        $0.refreshes = 1
      }
      await tester.assert {
        $0.items = ["a", "b"]
        $0.isLoading = false
      }
      tester.assertEffects([.track(event: "refreshed", properties: ["count": "2"])])
      await tester.finish()
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aValueSetAndSetBackInOneJobIsNoStep() async {
    await withVirtualTime { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      model.flicker()  // isSaving true, then false, in the test's own code
      await tester.assert { $0.count = 1 }
      await tester.finish()
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func readingThroughTheClosureStartsFromTheValueBeforeTheChange() async {
    await withVirtualTime { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      model.incrementTapped()
      await tester.assert { $0.count += 1 }
      model.incrementTapped()
      model.items.append("c")
      await tester.assert {
        $0.count += 1
        $0.items.append("c")
      }
      #expect(model.count == 2)
      await tester.finish()
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func valuesOfEveryShapeAreComparedAndIgnoredPropertiesLeftAlone() async {
    await withVirtualTime { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      model.phase = .loading(page: 2)
      model.filter.terms.append("swift")  // not Equatable: compared by structure
      model.scores["ada"] = 3
      model.query = "q"
      model.cache = ["not observed"]
      await tester.assert {
        $0.phase = .loading(page: 2)
        $0.filter.terms = ["swift"]
        $0.scores["ada"] = 3
        $0.query = "q"
      }
      await tester.finish()
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aNestedChildIsStatedThroughItsParent() async {
    await withVirtualTime { _ in
      let model = FeedModel()
      model.draft = DraftModel(title: "Hello")
      let tester = ModelTester(model)
      model.saveDraftTapped()
      await tester.assert { $0.draft?.isSaving = true }
      await tester.advance(by: .milliseconds(300))
      await tester.assert { $0.draft?.isSaving = false }
      tester.assertEffects([.setDefault(.string("Hello"), for: "draft")])
      let next = DraftModel(title: "Next")
      model.draft = next
      await tester.assert { $0.draft = next }
      model.draft = nil
      await tester.assert { $0.draft = nil }
      await tester.finish()
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func twoPropertiesHoldingTheSameValueAreToldApart() async {
    await withVirtualTime { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      model.isSaving = true  // isLoading and isSaving were both false
      await tester.assert { $0.isSaving = true }
      model.isSaving = false
      model.isLoading = true
      await tester.assert {
        $0.isLoading = true
        $0.isSaving = false
      }
      #expect(model.isLoading && !model.isSaving)  // the tester wrote nothing for good
      await tester.finish()
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func theWorldTheModelChangesIsAssertedAsEffects() async {
    await withVirtualTime { _ in
      let environment = Environment.current
      let model = FeedModel()
      let tester = ModelTester(model)
      environment.console.print("hello")
      try? environment.fileWriter.writeFile(path: "/notes/a.txt", contents: Data("a".utf8))
      environment.defaults.set(.int(1), for: "launches")
      tester.assertEffects([  // as they happened: the order across kinds is free
        .print("hello"),
        .writeFile(path: "/notes/a.txt", contents: Data("a".utf8)),
        .setDefault(.int(1), for: "launches"),
      ])
      await tester.finish()
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func withExhaustivityOffAssertChecksOnlyWhatItStates() async {
    await withVirtualTime { _ in
      let model = FeedModel()
      let tester = ModelTester(model, exhaustivity: .off)
      model.refreshTapped()
      await tester.advance(by: .seconds(1))
      await tester.assert { $0.items = ["a", "b"] }
      await tester.finish()
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func skippingTakesEveryChangeSoFar() async {
    await withVirtualTime { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      model.refreshTapped()
      await tester.advance(by: .seconds(1))
      await tester.skipChanges()
      #expect(model.items == ["a", "b"])
      await tester.skipChanges(strict: false)
      await tester.finish()
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test(.virtualTime) func theTraitOpensTheScope() async {
    let model = FeedModel()
    let tester = ModelTester(model)
    model.incrementTapped()
    await tester.assert { $0.count = 1 }
    await tester.finish()
  }
}
