import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Testing

struct RecordingInterpreterTests {
  @Test func recordsEffectsInOrderInsteadOfPerformingThem() throws {
    let recorder = RecordingInterpreter<Effect>()
    try recorder.interpreter.perform([.removeFile(path: "/does/not/exist"), .track(event: "e", properties: [:])])
    #expect(recorder.effects == [.removeFile(path: "/does/not/exist"), .track(event: "e", properties: [:])])
  }

  @Test func recordsAnAfterEffectAsOneEffectAndRunsNothingInIt() throws {
    let recorder = RecordingInterpreter<Effect>()
    try recorder.interpreter.perform([.after(.seconds(5), [.print("later")])])
    recorder.assertEffects([.after(.seconds(5), [.print("later")])])
  }

  @Test func assertEffectsChecksEverythingRecordedAndConsumesNothing() throws {
    let recorder = RecordingInterpreter<LoginEffect>()
    let interpreter = recorder.interpreter

    #expect(try !interpreter.perform(login(.wrongPassword)))
    recorder.assertEffects([.showAlert("Wrong password")])
    #expect(recorder.effects == [.showAlert("Wrong password")])

    #expect(try interpreter.perform(login(.success(token: "abc"))))
    recorder.assertEffects([.showAlert("Wrong password"), .storeToken("abc"), .showAlert("Welcome")])
    recorder.assertEffects(count: 3)
  }

  @Test func clearAfterAnAssertionChecksOneStepAtATime() throws {
    let recorder = RecordingInterpreter<LoginEffect>()
    let interpreter = recorder.interpreter

    _ = try interpreter.perform(login(.wrongPassword))
    recorder.assertEffects([.showAlert("Wrong password")])
    recorder.clear()

    _ = try interpreter.perform(login(.success(token: "abc")))
    recorder.assertEffects([.storeToken("abc"), .showAlert("Welcome")])
    recorder.clear()

    recorder.assertNoEffects()
  }

  @Test func assertEffectsReportsADiffAtTheCallersLine() throws {
    let recorder = RecordingInterpreter<LoginEffect>()
    _ = try recorder.interpreter.perform(login(.success(token: "abc")))

    let line = #line + 2
    let issues = withCapturedIssues {
      recorder.assertEffects([.storeToken("abc")])
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          RecordingInterpreter effects differ: got 2, expected 1; first difference at index 1:
              [0] storeToken("abc")
            + [1] showAlert("Welcome")   (unexpected)
          """,
          line: line
        )
      ]
    )
    #expect(recorder.effects == [.storeToken("abc"), .showAlert("Welcome")])
  }

  /// A test written for the old since-last-assertion semantics asserts only the latest step: the
  /// message says why it fails and how to clear.
  @Test func assertingOnlyTheLatestStepSaysToClear() throws {
    let recorder = RecordingInterpreter<LoginEffect>()
    _ = try recorder.interpreter.perform(login(.wrongPassword))
    recorder.assertEffects([.showAlert("Wrong password")])
    _ = try recorder.interpreter.perform(login(.success(token: "abc")))

    let line = #line + 2
    let issues = withCapturedIssues {
      recorder.assertEffects([.storeToken("abc"), .showAlert("Welcome")])
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          RecordingInterpreter effects differ: got 3, expected 2; first difference at index 0:
            + [0] showAlert("Wrong password")   (unexpected)
              [1] storeToken("abc")
              [2] showAlert("Welcome")
          The expected list is the last 2 of the 3 effects recorded: an assertion checks every effect since the \
          recorder was made or cleared. Call clear() after an assertion to check one step at a time.
          """,
          line: line
        )
      ]
    )
  }

  @Test func assertEffectsCountPassesWithTheRightCount() throws {
    let recorder = RecordingInterpreter<Effect>()
    recorder.assertEffects(count: 0)
    try recorder.interpreter.perform([.print("a"), .print("b")])
    recorder.assertEffects(count: 2)
  }

  @Test func assertEffectsCountReportsTheEffects() throws {
    let recorder = RecordingInterpreter<Effect>()
    try recorder.interpreter.perform([.print("a")])
    let line = #line + 2
    let issues = withCapturedIssues {
      recorder.assertEffects(count: 2)
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          RecordingInterpreter recorded 1 effect, expected 2 effects:
            [0] print("a")
          """,
          line: line
        )
      ]
    )
  }

  @Test func assertEffectsCountRejectsANegativeCount() {
    let recorder = RecordingInterpreter<Effect>()
    let line = #line + 2
    let issues = withCapturedIssues {
      recorder.assertEffects(count: -1)
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          "RecordingInterpreter cannot have recorded -1 effects. Pass assertEffects(count:) a count of 0 or more.",
          line: line
        )
      ]
    )
  }

  @Test func assertNoEffectsPassesWhenNothingWasRecorded() {
    RecordingInterpreter<Effect>().assertNoEffects()
  }

  @Test func assertNoEffectsReportsWhatWasRecorded() throws {
    let recorder = RecordingInterpreter<Effect>()
    try recorder.interpreter.perform([.print("surprise"), .removeFile(path: "/tmp/a")])
    let line = #line + 2
    let issues = withCapturedIssues {
      recorder.assertNoEffects()
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          RecordingInterpreter recorded 2 effects, expected none:
            [0] print("surprise")
            [1] removeFile(path: "/tmp/a")
          """,
          line: line
        )
      ]
    )
  }

  @Test func assertingAnEmptyListFailsWhenSomethingWasRecorded() throws {
    let recorder = RecordingInterpreter<Effect>()
    try recorder.interpreter.perform([.print("surprise")])
    let line = #line + 2
    let issues = withCapturedIssues {
      recorder.assertEffects([])
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          RecordingInterpreter effects differ: got 1, expected 0; first difference at index 0:
            + [0] print("surprise")   (unexpected)
          """,
          line: line
        )
      ]
    )
  }

  @Test func aPulledBackRecorderShowsAnAppsEffectsAsBuiltInOnes() throws {
    let recorder = RecordingInterpreter<Effect>()
    let interpreter: Interpreter<LoginEffect> = recorder.interpreter.pullback { effect in
      switch effect {
      case .showAlert(let message): .print(message)
      case .storeToken(let token): .setDefault(.string(token), for: "token")
      }
    }

    _ = try interpreter.perform(login(.success(token: "abc")))

    recorder.assertEffects([.setDefault("abc", for: "token"), .print("Welcome")])
  }

  @Test func recordsEveryEffectFromConcurrentTasks() async throws {
    let recorder = RecordingInterpreter<Int>()
    let interpreter = recorder.interpreter
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for step in 0..<100 { try interpreter.perform([task * 100 + step]) }
        }
      }
      try await group.waitForAll()
    }
    #expect(recorder.effects.sorted() == Array(0..<800))
  }
}
