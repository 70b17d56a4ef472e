import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Testing

struct AssertEffectsTests {
  @Test func passesWhenTheEffectsAreExactlyTheExpectedOnes() {
    assertEffects(
      of: Outcome(value: 1, effects: [Effect.print("a"), .removeDefault(for: "b")]),
      [.print("a"), .removeDefault(for: "b")]
    )
    assertEffects(of: Outcome<Int, Effect>.pure(1), [])
  }

  @Test func reportsAMissingEffectAtTheCallersLine() {
    let outcome = Outcome(value: 1, effects: [Effect.print("a"), .print("c")])
    let line = #line + 2
    let issues = withCapturedIssues {
      assertEffects(of: outcome, [.print("a"), .print("b"), .print("c")])
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          assertEffects(of:_:) found other effects: got 2, expected 3; first difference at index 1:
              [0] print("a")
            - [1] print("b")   (missing)
              [1] print("c")
          """,
          line: line
        )
      ]
    )
  }

  @Test func reportsAnExtraEffect() {
    let outcome = Outcome(value: 1, effects: [Effect.print("a"), .track(event: "extra", properties: ["k": "v"])])
    let line = #line + 2
    let issues = withCapturedIssues {
      assertEffects(of: outcome, [.print("a")])
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          assertEffects(of:_:) found other effects: got 2, expected 1; first difference at index 1:
              [0] print("a")
            + [1] track(event: "extra", properties: ["k": "v"])   (unexpected)
          """,
          line: line
        )
      ]
    )
  }

  @Test func reportsReorderedEffects() {
    let outcome = Outcome(value: 1, effects: [Effect.print("b"), .print("a")])
    let line = #line + 2
    let issues = withCapturedIssues {
      assertEffects(of: outcome, [.print("a"), .print("b")])
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          assertEffects(of:_:) found other effects: got 2, expected 2; first difference at index 0:
            + [0] print("b")   (unexpected)
              [1] print("a")
            - [1] print("b")   (missing)
          """,
          line: line
        )
      ]
    )
  }

  @Test func reportsAChangedEffect() {
    let outcome = Outcome(value: 1, effects: [Effect.print("hi"), .setDefault("xyz", for: "token")])
    let line = #line + 2
    let issues = withCapturedIssues {
      assertEffects(of: outcome, [.print("hi"), .setDefault("abc", for: "token")])
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          assertEffects(of:_:) found other effects: got 2, expected 2; first difference at index 1:
              [0] print("hi")
            ~ [1] setDefault("abc", for: "token")   (expected)
              [1] setDefault("xyz", for: "token")   (actual)
          """,
          line: line
        )
      ]
    )
  }

  @Test func reportsEffectsWhenNoneWereExpected() {
    let line = #line + 2
    let issues = withCapturedIssues {
      assertEffects(of: Outcome(value: 1, effects: [Effect.print("surprise")]), [])
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          assertEffects(of:_:) found other effects: got 1, expected 0; first difference at index 0:
            + [0] print("surprise")   (unexpected)
          """,
          line: line
        )
      ]
    )
  }

  @Test func worksWithAnAppsOwnEffects() {
    assertEffects(of: login(.success(token: "abc")), [.storeToken("abc"), .showAlert("Welcome")])
    let line = #line + 2
    let issues = withCapturedIssues {
      assertEffects(of: login(.wrongPassword), [.showAlert("Try again")])
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          assertEffects(of:_:) found other effects: got 1, expected 1; first difference at index 0:
            ~ [0] showAlert("Try again")   (expected)
              [0] showAlert("Wrong password")   (actual)
          """,
          line: line
        )
      ]
    )
  }
}
