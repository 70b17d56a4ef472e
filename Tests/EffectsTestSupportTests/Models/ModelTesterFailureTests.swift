import Effects
@testable import EffectsTestSupport
import Foundation
import Testing

/// Every way a `ModelTester` test fails, captured: the exact text, at the exact line.
@MainActor
@Suite struct ModelTesterFailureTests {
  /// The issues `body` reports inside a virtual-time scope.
  func issues(_ body: @MainActor (TestScheduler) async -> Void) async -> [CapturedIssue] {
    await withCapturedIssues { await withVirtualTime { scheduler in await body(scheduler) } }.issues
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aChangeNotStatedIsShownWithItsOldAndNewValueAndWhoMadeIt() async {
    var line = 0
    let issues = await issues { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      model.refreshTapped()
      line = #line + 1
      await tester.assert { $0.isLoading = true }
      await tester.advance(by: .seconds(1))
      await tester.skipChanges()  // the items, and the event tracked
      await tester.finish()
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester.assert(_:) found the model changed other than stated at .seconds(0), by the task started \
          at EffectsTestSupportTests/Models.swift:53:
            refreshes: 0 → 1, not stated
          Describe each change the model made in this step in assert { $0 … }, or fix the model.
          """,
          line: line,
          kind: .stateMismatch
        )
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aChangeStatedOtherThanMadeAndOneStatedThatDidNotChangeAreEachShown() async {
    var line = 0
    let issues = await issues { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      model.items = ["a", "b"]
      line = #line + 1
      await tester.assert {
        $0.items = ["a"]
        $0.count = 0
        $0.query = "q"
      }
      await tester.finish()
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester.assert(_:) found the model changed other than stated at .seconds(0), by the test:
            items: [] → ["a", "b"], stated ["a"]
            count: stated 0, which it was already; it did not change
            query: stated "q", but it did not change from nil
          Describe each change the model made in this step in assert { $0 … }, or fix the model.
          """,
          line: line,
          kind: .stateMismatch
        )
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func anIntermediateStateNotStatedFailsTheTest() async {
    var line = 0
    let issues = await issues { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      model.refreshTapped()
      await tester.advance(by: .seconds(1))
      line = #line + 1
      await tester.assert {  // states only where the model ended
        $0.items = ["a", "b"]
        $0.refreshes = 1
      }
      await tester.skipChanges()
      await tester.finish()
    }
    #expect(
      issues == [
        CapturedIssue(
          """
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
          line: line,
          kind: .stateMismatch
        )
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aChangeLeftBeforeAnAdvanceIsReportedThere() async {
    var line = 0
    let issues = await issues { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      model.incrementTapped()
      line = #line + 1
      await tester.advance(by: .seconds(1))
      await tester.finish()
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester.advance(by: .seconds(1)) found a change of the model the test did not assert:
            at .seconds(0), by the test:
              count: 0 → 1
          Assert it with await tester.assert { $0 … } before this line, or take it unchecked with await \
          tester.skipChanges().
          """,
          line: line,
          kind: .stateMismatch
        )
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func effectsNotAssertedAreReportedBeforeTimeMovesAndOtherEffectsAsADiff() async {
    var lines: [Int] = []
    let issues = await issues { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      model.refreshTapped()
      await tester.assert {
        $0.isLoading = true
        $0.refreshes = 1
      }
      Environment.current.console.print("debugging")
      lines.append(#line + 1)
      await tester.advance(by: .seconds(1))
      await tester.assert {
        $0.items = ["a", "b"]
        $0.isLoading = false
      }
      lines.append(#line + 1)
      tester.assertEffects([.track(event: "refreshed", properties: [:])])
      await tester.finish()
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester.advance(by: .seconds(1)) found an effect on the world the test did not assert:
            [0] print("debugging")
          Assert it with tester.assertEffects([…]) before this line.
          """,
          line: lines[0],
          kind: .unassertedEffects
        ),
        CapturedIssue(
          """
          ModelTester.assertEffects(_:) found other effects: got 1, expected 1; first difference at index 0:
            ~ [0] track(event: "refreshed", properties: [:])   (expected)
              [0] track(event: "refreshed", properties: ["count": "2"])   (actual)
          """,
          line: lines[1],
          kind: .assertionFailed
        ),
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func anAssertOfALaterChangeNamesTheChangesBeforeItAndGoesOnInStep() async {
    var line = 0
    let issues = await issues { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      model.refreshTapped()
      await tester.advance(by: .seconds(1))
      line = #line + 1
      await tester.assert {  // the second step: the first is not stated
        $0.items = ["a", "b"]
        $0.isLoading = false
      }
      tester.assertEffects([.track(event: "refreshed", properties: ["count": "2"])])
      await tester.finish()
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester.assert(_:) found the change stated, after a change of the model the test did not state:
            at .seconds(0), by the task started at EffectsTestSupportTests/Models.swift:53:
              isLoading: false → true
              refreshes: 0 → 1
          State each change with an await tester.assert { $0 … } of its own, in order, or take it unchecked \
          with await tester.skipChanges() before this line.
          """,
          line: line,
          kind: .stateMismatch
        )
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aComputedOrIgnoredPropertyStatedIsReportedAsNotObserved() async {
    var line = 0
    let issues = await issues { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      model.items = ["a"]
      line = #line + 1
      await tester.assert {
        $0.items = ["a"]
        $0.itemCount = 1
        $0.cache = ["x"]
      }
      await tester.finish()
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester.assert(_:) found the model changed other than stated at .seconds(0), by the test:
          A key path of type KeyPath<FeedModel, Int> names no observed stored property of FeedModel (a computed \
          property, or one marked @ObservationIgnored), so it cannot be stated: state the stored properties it is \
          made from.
          A key path of type KeyPath<FeedModel, Array<String>> names no observed stored property of FeedModel (a \
          computed property, or one marked @ObservationIgnored), so it cannot be stated: state the stored \
          properties it is made from.
          Describe each change the model made in this step in assert { $0 … }, or fix the model.
          """,
          line: line,
          kind: .stateMismatch
        )
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func twoPropertiesEqualNowAreToldApartByWritingOneAndBack() async {
    let issues = await issues { _ in
      let model = TwinFlags()
      let tester = ModelTester(model)
      model.second = "changed"
      await tester.assert { $0.second = "changed" }
      #expect(model.first == "same" && model.second == "changed")
      await tester.finish()
    }
    #expect(issues == [])
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func assertingAChangeWhenNoneWasMadeSaysSo() async {
    var line = 0
    let issues = await issues { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      line = #line + 1
      await tester.assert { $0.count = 2 }
      await tester.finish()
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester.assert(_:) expected a change, and the model did not change by .seconds(0): every change \
          recorded was asserted already.
            count: stated 2; it is 0
          Remove this assert, or advance time to the change: await tester.advance(by: …).
          """,
          line: line,
          kind: .stateMismatch
        )
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func anAssertWithoutAClosureExpectsNoChange() async {
    var line = 0
    let issues = await issues { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      model.phase = .failed("offline")
      line = #line + 1
      await tester.assert()
      await tester.finish()
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester.assert(_:) expected no change, and the model changed at .seconds(0), by the test:
            phase: .idle → .failed("offline"), not stated
          Describe each change the model made in this step in assert { $0 … }, or fix the model.
          """,
          line: line,
          kind: .stateMismatch
        )
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func withExhaustivityOffAStatementOtherThanTheModelIsReported() async {
    var line = 0
    let issues = await issues { _ in
      let model = FeedModel()
      let tester = ModelTester(model, exhaustivity: .off)
      model.refreshTapped()
      await tester.advance(by: .seconds(1))
      line = #line + 1
      await tester.assert { $0.items = ["a"] }
      await tester.finish()
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester.assert(_:) found the model other than stated:
            items: is ["a", "b"], stated ["a"]
          With exhaustivity .off, assert checks what it states against the model now: fix what it states, or \
          the model.
          """,
          line: line,
          kind: .stateMismatch
        )
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func misusesAreNamed() async {
    var line = 0
    let issues = await issues { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      tester.assertEffects([])  // none, rightly
      line = #line + 1
      await tester.skipChanges()
      await tester.finish()
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester.skipChanges() found no change and no effect to skip. Remove the call, or pass strict: false \
          where there may be none.
          """,
          line: line,
          kind: .misuse
        )
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aChangeAfterFinishIsReportedAtFinishWhenTheScopeEnds() async {
    var line = 0
    let issues = await issues { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      line = #line + 1
      await tester.finish()
      model.count = 7
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester: the model changed after finish(), when the test had ended:
            at .seconds(0), by the test:
              count: 0 → 7
          Let the work that changes the model end before finish(), or cancel it there.
          """,
          line: line,
          kind: .leftoverWork
        )
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aTestThatNeverFinishesIsToldWhatItLeftAtTheLineThatMadeTheTester() async {
    var line = 0
    let issues = await issues { _ in
      let model = FeedModel()
      line = #line + 1
      let tester = ModelTester(model)
      model.count = 3
      _ = tester
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester made here was not finished: the test ended without await tester.finish(), leaving a change \
          of the model it did not assert:
            at .seconds(0), by the test:
              count: 0 → 3
          End the test with await tester.finish(), which settles the model's tasks and reports what is left.
          """,
          line: line,
          kind: .leftoverWork
        )
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aTesterMadeOutsideAScopeSaysSoAndStillChecksWhatTheTestChanged() async {
    var lines: [Int] = []
    let issues = await withCapturedIssues {
      await withEnvironment(.test()) {
        let model = FeedModel()
        lines.append(#line + 1)
        let tester = ModelTester(model)
        model.count = 1
        lines.append(#line + 1)
        await tester.assert { $0.count = 2 }
        await tester.finish()
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester was made outside a virtual-time scope, so it cannot see the jobs that change the model: it \
          records only what changed before each call on it, and cannot wait for the model's tasks. Mark the test \
          @Test(.virtualTime) (or its suite @Suite(.virtualTime)), or make the tester inside withVirtualTime { \
          scheduler in … }.
          """,
          line: lines[0],
          kind: .wrongScheduler
        ),
        CapturedIssue(
          """
          ModelTester.assert(_:) found the model changed other than stated at .seconds(0), by the test:
            count: 0 → 1, stated 2
          Describe each change the model made in this step in assert { $0 … }, or fix the model.
          """,
          line: lines[1],
          kind: .stateMismatch
        ),
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aModelMadeWithTheLiveEnvironmentIsReported() async {
    var line = 0
    let issues = await issues { _ in
      let model = LiveModel(environment: .live)
      line = #line + 1
      let tester = ModelTester(model)
      await tester.finish()
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester was given a model whose environment (its property environment) is the live one, not the \
          test's: the model was made outside the test, so it reads the real world, and its tasks do not run on \
          the test's virtual time. Make the model inside the test, where Environment.current is the test's.
          """,
          line: line,
          kind: .wrongScheduler
        )
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aClassWithoutTheMacroIsReported() async {
    var line = 0
    let issues = await issues { _ in
      line = #line + 1
      let tester = ModelTester(HandRolled())
      await tester.finish()
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester cannot read HandRolled: it has no property the @Observable macro observes, so no change of \
          it can be recorded. Mark the class @Observable, and give the tester the model itself.
          """,
          line: line,
          kind: .invalidArgument
        )
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aHugeChangeIsReportedWithinTheBudget() async {
    let issues = await issues { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      model.items = (0..<100_000).map { "item \($0)" }
      for index in 0..<100 { model.scores["key \(index)"] = index }
      await tester.assert()
      await tester.finish()
    }
    #expect(issues.count == 1)
    #expect(issues.first.map { $0.message.count <= 2_000 } == true)
    #expect(issues.first?.message.contains("…] (100000 entries)") == true)
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aNewChildStatedAsAnotherInstanceSaysSo() async {
    var line = 0
    let issues = await issues { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      model.draft = DraftModel(title: "x")
      line = #line + 1
      await tester.assert { $0.draft = DraftModel(title: "x") }
      await tester.finish()
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester.assert(_:) found the model changed other than stated at .seconds(0), by the test:
            draft: nil → DraftModel(title: "x", isSaving: false), stated DraftModel(title: "x", isSaving: false), \
          another instance: a child is compared by identity; state the one the model holds (keep it in a \
          variable)
          Describe each change the model made in this step in assert { $0 … }, or fix the model.
          """,
          line: line,
          kind: .stateMismatch
        )
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func effectsAssertedBeforeTheModelsTasksRanSayWhy() async {
    var line = 0
    let issues = await issues { _ in
      let model = FeedModel()
      let tester = ModelTester(model)
      Environment.current.stubNetwork.stub(.get("https://api.example.com/items"), .json("[]"))
      Task { _ = try? await Environment.current.network.send(.get("https://api.example.com/items")) }
      line = #line + 1
      tester.assertEffects([.send(.get("https://api.example.com/items"))])
      await tester.skipChanges()
      await tester.finish()
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester.assertEffects(_:) found other effects: got 0, expected 1; first difference at index 0:
            - [0] send(GET https://api.example.com/items)   (missing)
          No effect was read since the last assertEffects: it does not wait for the model's tasks. Call it after \
          await tester.assert { … } or await tester.advance(by:).
          """,
          line: line,
          kind: .assertionFailed
        )
      ]
    )
  }
}
