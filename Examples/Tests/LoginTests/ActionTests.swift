import Foundation
import Login
import Testing

private struct Offline: LocalizedError {
  var errorDescription: String? { "You're offline" }
}

/// The decision, tested as a pure function: five responses, five answers.
@Suite struct ActionTests {
  @Test func aFailedRequestShowsItsErrorInAnAlert() {
    #expect(action(for: .failure(Offline())) == .showAlert(message: "You're offline"))
  }

  @Test func validationErrorsAreShownOnePerLine() {
    let json = #"{"validation_errors":["First","Second","Third"]}"#
    #expect(action(for: .success(json)) == .showValidationError("First\nSecond\nThird"))
  }

  @Test func aSessionTokenIsStored() {
    #expect(action(for: .success(#"{"session_token":"user_session"}"#)) == .storeToken(sessionToken: "user_session"))
  }

  @Test func aResponseWithBothATokenAndErrorsIsUnexpected() {
    let json = #"{"session_token":"token","validation_errors":["Error"]}"#
    #expect(action(for: .success(json)) == .showAlert(message: "Unexpected response received"))
  }

  @Test(arguments: [#"{"something":"else"}"#, "not json", "", "[]"])
  func aResponseWithNeitherIsUnexpected(_ json: String) {
    #expect(action(for: .success(json)) == .showAlert(message: unexpectedResponseMessage))
  }
}
