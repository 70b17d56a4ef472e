import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Testing

struct AssertEffectsTests {
  /// The text of an issue's comments.
  static func message(of issue: Issue) -> String {
    issue.comments.map(\.rawValue).joined(separator: "\n")
  }

  @Test func passesWhenTheEffectsAreExactlyTheExpectedOnes() {
    assertEffects(
      of: Outcome(value: 1, effects: [Effect.print("a"), .removeDefault(key: "b")]),
      [.print("a"), .removeDefault(key: "b")]
    )
    assertEffects(of: Outcome<Int, Effect>.pure(1), [])
  }

  @Test func reportsAMissingEffectAtTheCallersLine() {
    let outcome = Outcome(value: 1, effects: [Effect.print("a"), .print("c")])
    let line = #line + 2
    withKnownIssue {
      assertEffects(of: outcome, [.print("a"), .print("b"), .print("c")])
    } matching: { issue in
      issue.sourceLocation?.line == line
        && Self.message(of: issue) == """
          effects did not match: expected 3, got 2; first difference at index 1:
              [0] print("a")
            - [1] print("b")   (missing)
              [1] print("c")
          """
    }
  }

  @Test func reportsAnExtraEffect() {
    let outcome = Outcome(value: 1, effects: [Effect.print("a"), .track(event: "extra", properties: ["k": "v"])])
    withKnownIssue {
      assertEffects(of: outcome, [.print("a")])
    } matching: { issue in
      Self.message(of: issue) == """
        effects did not match: expected 1, got 2; first difference at index 1:
            [0] print("a")
          + [1] track(event: "extra", properties: ["k": "v"])   (unexpected)
        """
    }
  }

  @Test func reportsReorderedEffects() {
    let outcome = Outcome(value: 1, effects: [Effect.print("b"), .print("a")])
    withKnownIssue {
      assertEffects(of: outcome, [.print("a"), .print("b")])
    } matching: { issue in
      Self.message(of: issue) == """
        effects did not match: expected 2, got 2; first difference at index 0:
          + [0] print("b")   (unexpected)
            [1] print("a")
          - [1] print("b")   (missing)
        """
    }
  }

  @Test func reportsAChangedEffect() {
    let outcome = Outcome(value: 1, effects: [Effect.print("hi"), .setDefault(key: "token", value: "xyz")])
    withKnownIssue {
      assertEffects(of: outcome, [.print("hi"), .setDefault(key: "token", value: "abc")])
    } matching: { issue in
      Self.message(of: issue) == """
        effects did not match: expected 2, got 2; first difference at index 1:
            [0] print("hi")
          ~ [1] setDefault(key: "token", value: "abc")   (expected)
            [1] setDefault(key: "token", value: "xyz")   (actual)
        """
    }
  }

  @Test func reportsEffectsWhenNoneWereExpected() {
    withKnownIssue {
      assertEffects(of: Outcome(value: 1, effects: [Effect.print("surprise")]), [])
    } matching: { issue in
      Self.message(of: issue) == """
        effects did not match: expected 0, got 1; first difference at index 0:
          + [0] print("surprise")   (unexpected)
        """
    }
  }

  @Test func worksWithAnAppsOwnEffects() {
    assertEffects(of: login(.success(token: "abc")), [.storeToken("abc"), .showAlert("Welcome")])
    withKnownIssue {
      assertEffects(of: login(.wrongPassword), [.showAlert("Try again")])
    } matching: { issue in
      Self.message(of: issue) == """
        effects did not match: expected 1, got 1; first difference at index 0:
          ~ [0] showAlert("Try again")   (expected)
            [0] showAlert("Wrong password")   (actual)
        """
    }
  }
}
