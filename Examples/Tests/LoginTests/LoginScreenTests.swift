import Effects
import EffectsTestSupport
import Foundation
import Login
import Testing

/// The side effects, tested once per effect: each reaches exactly one collaborator, and nothing
/// else is called.
@Suite struct LoginScreenTests {
  @Test func showAlertPresentsTheMessage() throws {
    let spied = SpiedLoginScreen()
    try spied.screen.dispatch(.showAlert(message: "You're offline"))
    spied.alerts.assertCalls(["You're offline"])
    spied.log.assertNoUnverifiedCalls()
  }

  @Test func showValidationErrorSetsTheLabel() throws {
    let spied = SpiedLoginScreen()
    try spied.screen.dispatch(.showValidationError("First\nSecond"))
    spied.label.assertCalls(["First\nSecond"])
    spied.log.assertNoUnverifiedCalls()
  }

  @Test func storeTokenStoresIt() throws {
    let spied = SpiedLoginScreen()
    try spied.screen.dispatch(.storeToken(sessionToken: "user_session"))
    spied.tokens.assertCalls(["user_session"])
    spied.log.assertNoUnverifiedCalls()
  }

  /// The glue: a response goes through the decision to the right collaborator, and only there.
  @Test func aMixedResponseAlertsAndStoresNothing() throws {
    let spied = SpiedLoginScreen()
    try spied.screen.handle(.success(#"{"session_token":"t","validation_errors":["e"]}"#))
    spied.log.assertCalls([CallLog.Entry("alerts.present", "Unexpected response received")])
    spied.tokens.assertNoCalls()
  }

  @Test func handlingIsDecidingThenDispatching() throws {
    let recorder = RecordingInterpreter<LoginEffect>()
    let screen = LoginScreen(interpreter: recorder.interpreter)
    try screen.handle(.success(#"{"session_token":"abc"}"#))
    recorder.assertEffects([.storeToken(sessionToken: "abc")])
    try screen.handle(.success(#"{"validation_errors":["Too short"]}"#))
    recorder.assertEffects([.storeToken(sessionToken: "abc"), .showValidationError("Too short")])
  }

  /// An app's own effects can reuse the built-in ones: here a token is kept in settings.
  @Test func pullbackReusesTheLiveInterpreterForSharedEffects() throws {
    let environment = Environment.test()
    let interpreter = Interpreter.live(environment: environment).pullback { (effect: LoginEffect) in
      switch effect {
      case .storeToken(let token): Effect.setDefault(.string(token), for: "sessionToken")
      case .showAlert(let message), .showValidationError(let message): Effect.print(message)
      }
    }
    try LoginScreen(interpreter: interpreter).handle(.success(#"{"session_token":"abc"}"#))
    #expect(environment.defaults.value(for: "sessionToken") == "abc")
    #expect(environment.printedLines.isEmpty)
  }
}
