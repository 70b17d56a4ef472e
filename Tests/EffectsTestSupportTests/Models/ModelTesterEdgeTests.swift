import Effects
@testable import EffectsTestSupport
import Foundation
import Testing

/// What an adversary found the tester missed or misreported, each now said: changes deep down or
/// inside objects held in values, key paths that name no observed property, statements that write
/// to the model, and calls after `finish()`.
@MainActor
@Suite struct ModelTesterEdgeTests {
  func issues(_ body: @MainActor (TestScheduler) async -> Void) async -> [CapturedIssue] {
    await withCapturedIssues { await withVirtualTime { scheduler in await body(scheduler) } }.issues
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aChangeSixLevelsDownIsSeenAndStatedOnATesterOfItsParent() async {
    var line = 0
    let issues = await issues { _ in
      var node = Node()
      for _ in 0..<6 { node = Node(next: node) }
      let model = node
      let tester = ModelTester(model)
      model.next?.next?.next?.next?.next?.next?.value = 1
      line = #line + 1
      await tester.assert()
      guard let parent = model.next?.next?.next?.next?.next else { return }
      let parentTester = ModelTester(parent)
      parent.next?.value = 2
      await parentTester.assert { $0.next?.value = 2 }
      await parentTester.finish()
      await tester.skipChanges()
      await tester.finish()
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester.assert(_:) expected no change, and the model changed at .seconds(0), by the test:
            next?.next?.next?.next?.next?.next?.value: 0 → 1, not stated
          Describe each change the model made in this step in assert { $0 … }, or fix the model.
          """,
          line: line,
          kind: .stateMismatch
        )
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aChangeInsideAnObjectHeldInAnArrayIsSeen() async {
    var line = 0
    let issues = await issues { _ in
      let model = Node()
      model.rows = [Row(), Row()]
      let tester = ModelTester(model)
      model.rows[1].title = "b"
      line = #line + 1
      await tester.assert()
      await tester.finish()
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester.assert(_:) expected no change, and the model changed at .seconds(0), by the test:
            rows: [Row(title: ""), Row(title: "")] → [Row(title: ""), Row(title: "b")], not stated
          Describe each change the model made in this step in assert { $0 … }, or fix the model.
          """,
          line: line,
          kind: .stateMismatch
        )
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func valuesThatPrintAlikeButDifferAreSeen() async {
    let issues = await issues { _ in
      let model = Node()
      let tester = ModelTester(model)
      model.note.data = Data([9, 9, 9])
      await tester.assert()
      model.note.at = Date(timeIntervalSinceReferenceDate: 0.5)
      await tester.assert()
      await tester.finish()
    }
    #expect(issues.count == 2)
    #expect(issues.allSatisfy { $0.message.contains("note: Note(") && $0.message.contains(", not stated") })
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func anIgnoredPropertyEqualToAnObservedOneIsNotTakenForIt() async {
    let issues = await issues { _ in
      let model = Node()
      let tester = ModelTester(model)
      model.value = 1
      model.cache = 1
      await tester.assert {
        $0.value = 1
        $0.cache = 1
      }
      await tester.finish()
    }
    #expect(issues.count == 1)
    #expect(issues.first?.message.contains("names no observed stored property of Node") == true)
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aStatementThatWritesThroughAnObjectInAValueIsReported() async {
    var line = 0
    let issues = await issues { _ in
      let model = Node()
      model.rows = [Row()]
      let tester = ModelTester(model)
      model.value = 2
      line = #line + 1
      await tester.assert {
        $0.value = 2
        $0.rows[0].title = "written"
      }
      await tester.skipChanges()
      await tester.finish()
    }
    #expect(
      issues.first
        == CapturedIssue(
          """
          ModelTester.assert(_:)'s closure changed the model itself: rows. A statement reached an object the model \
          holds in a value ($0.rows[0].title = …) and wrote to it. State such a change as the whole value of the \
          property that holds it.
          """,
          line: line,
          kind: .misuse
        )
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aChildStatedWithAWrongPropertyIsReportedEvenWhenNew() async {
    let issues = await issues { _ in
      let model = Node()
      let tester = ModelTester(model)
      let fresh = Node()
      fresh.value = 5
      model.next = fresh
      await tester.assert {
        $0.next = fresh
        $0.next?.value = 4
      }
      await tester.finish()
    }
    #expect(issues.count == 1)
    #expect(issues.first?.message.contains("next?.value: (absent) → 5, stated 4") == true)
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func callsAfterFinishAreMisuses() async {
    var lines: [Int] = []
    let issues = await issues { _ in
      let model = Node()
      let tester = ModelTester(model)
      lines.append(#line + 1)
      await tester.finish()
      lines.append(#line + 1)
      await tester.assert()
      lines.append(#line + 1)
      await tester.finish()
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          ModelTester.assert(_:) was called after finish() at EffectsTestSupportTests/ModelTesterEdgeTests.swift:\
          \(lines[0]), which ended the test of the model: the call does nothing. Call finish() last.
          """,
          line: lines[1],
          kind: .misuse
        ),
        CapturedIssue(
          """
          ModelTester.finish() was called after finish() at EffectsTestSupportTests/ModelTesterEdgeTests.swift:\
          \(lines[0]), which ended the test of the model: the call does nothing. Call finish() last.
          """,
          line: lines[2],
          kind: .misuse
        ),
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func eventsTrackedAfterTheLogWasClearedAreSeenEvenAtTheSameCount() async {
    let issues = await issues { _ in
      let model = Node()
      let tester = ModelTester(model)
      let events = Environment.current.events
      events.track(event: "a", properties: [:])
      tester.assertEffects([.track(event: "a", properties: [:])])
      (events as? InMemoryEventLog)?.clear()
      events.track(event: "b", properties: [:])
      tester.assertEffects([.track(event: "b", properties: [:])])
      await tester.finish()
    }
    #expect(issues == [])
  }
}
