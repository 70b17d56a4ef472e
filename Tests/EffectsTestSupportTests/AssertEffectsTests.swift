import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Testing

struct AssertEffectsTests {
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
    expectIssues {
      assertEffects(of: outcome, [.print("a"), .print("b"), .print("c")])
    } matching: { issue in
      issue.line == line
        && issue.message == """
          effects did not match: expected 3, got 2; first difference at index 1:
              [0] print("a")
            - [1] print("b")   (missing)
              [1] print("c")
          """
    }
  }

  @Test func reportsAnExtraEffect() {
    let outcome = Outcome(value: 1, effects: [Effect.print("a"), .track(event: "extra", properties: ["k": "v"])])
    expectIssues {
      assertEffects(of: outcome, [.print("a")])
    } matching: { issue in
      issue.message == """
        effects did not match: expected 1, got 2; first difference at index 1:
            [0] print("a")
          + [1] track(event: "extra", properties: ["k": "v"])   (unexpected)
        """
    }
  }

  @Test func reportsReorderedEffects() {
    let outcome = Outcome(value: 1, effects: [Effect.print("b"), .print("a")])
    expectIssues {
      assertEffects(of: outcome, [.print("a"), .print("b")])
    } matching: { issue in
      issue.message == """
        effects did not match: expected 2, got 2; first difference at index 0:
          + [0] print("b")   (unexpected)
            [1] print("a")
          - [1] print("b")   (missing)
        """
    }
  }

  @Test func reportsAChangedEffect() {
    let outcome = Outcome(value: 1, effects: [Effect.print("hi"), .setDefault(key: "token", value: "xyz")])
    expectIssues {
      assertEffects(of: outcome, [.print("hi"), .setDefault(key: "token", value: "abc")])
    } matching: { issue in
      issue.message == """
        effects did not match: expected 2, got 2; first difference at index 1:
            [0] print("hi")
          ~ [1] setDefault(key: "token", value: "abc")   (expected)
            [1] setDefault(key: "token", value: "xyz")   (actual)
        """
    }
  }

  @Test func reportsEffectsWhenNoneWereExpected() {
    expectIssues {
      assertEffects(of: Outcome(value: 1, effects: [Effect.print("surprise")]), [])
    } matching: { issue in
      issue.message == """
        effects did not match: expected 0, got 1; first difference at index 0:
          + [0] print("surprise")   (unexpected)
        """
    }
  }

  @Test func worksWithAnAppsOwnEffects() {
    assertEffects(of: login(.success(token: "abc")), [.storeToken("abc"), .showAlert("Welcome")])
    expectIssues {
      assertEffects(of: login(.wrongPassword), [.showAlert("Try again")])
    } matching: { issue in
      issue.message == """
        effects did not match: expected 1, got 1; first difference at index 0:
          ~ [0] showAlert("Try again")   (expected)
            [0] showAlert("Wrong password")   (actual)
        """
    }
  }
}
