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

  @Test func assertEffectsChecksEachStepOnce() throws {
    let recorder = RecordingInterpreter<LoginEffect>()
    let interpreter = recorder.interpreter

    #expect(try !interpreter.run(login(.wrongPassword)))
    recorder.assertEffects([.showAlert("Wrong password")])
    #expect(recorder.effects.isEmpty)

    #expect(try interpreter.run(login(.success(token: "abc"))))
    recorder.assertEffects([.storeToken("abc"), .showAlert("Welcome")])

    recorder.assertEffects([])
  }

  @Test func assertEffectsReportsADiffAtTheCallersLineAndStartsANewStep() throws {
    let recorder = RecordingInterpreter<LoginEffect>()
    _ = try recorder.interpreter.run(login(.success(token: "abc")))

    let line = #line + 2
    let issues = withCapturedIssues {
      recorder.assertEffects([.storeToken("abc")])
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          recorded effects did not match: expected 1, got 2; first difference at index 1:
              [0] storeToken("abc")
            + [1] showAlert("Welcome")   (unexpected)
          """,
          line: line
        )
      ]
    )

    #expect(recorder.effects.isEmpty)
    try recorder.interpreter.perform([.showAlert("Bye")])
    recorder.assertEffects([.showAlert("Bye")])
  }

  @Test func assertingNothingFailsWhenSomethingWasRecorded() throws {
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
          recorded effects did not match: expected 0, got 1; first difference at index 0:
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

    _ = try interpreter.run(login(.success(token: "abc")))

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
