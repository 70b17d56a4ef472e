import Foundation
import Login
import Testing

/// The seed's decision, tested as a pure function: five responses, five answers — two of them the
/// cases the original code forgot.
@Suite struct DecisionTests {
  @Test func aFailedRequestShowsItsErrorInAnAlert() {
    #expect(decision(for: .failure(Offline())) == .showAlert(message: "You're offline"))
  }

  @Test func validationErrorsAreShownOnePerLine() {
    let json = #"{"validation_errors":["First","Second","Third"]}"#
    #expect(decision(for: .success(json)) == .showValidationError("First\nSecond\nThird"))
  }

  @Test func aSessionTokenIsStored() {
    #expect(decision(for: .success(Body.token)) == .storeToken(sessionToken: "user_session"))
  }

  @Test func aResponseWithBothATokenAndErrorsIsUnexpected() {
    #expect(decision(for: .success(Body.tokenAndErrors)) == .showAlert(message: "Unexpected response received"))
  }

  @Test(arguments: [#"{"something":"else"}"#, "not json", "", "[]"])
  func aResponseWithNeitherIsUnexpected(_ json: String) {
    #expect(decision(for: .success(json)) == .showAlert(message: unexpectedResponseMessage))
  }
}
