import Foundation
import Login

/// The seed's responses and the form that sends them, shared by every test.
enum Body {
  static let token = #"{"session_token":"user_session"}"#
  static let validationErrors = #"{"validation_errors":["Not","A","Good","Data"]}"#
  static let tokenAndErrors = #"{"session_token":"token","validation_errors":["Error"]}"#
  static let neither = "Not success"
}

extension Credentials {
  static let blob = Credentials(email: "blob@example.com", password: "secret")
}

extension LoginState {
  /// The form filled with ``Credentials/blob``, not submitted yet.
  static let filled = LoginState(email: "blob@example.com", password: "secret")
}

struct Offline: LocalizedError {
  var errorDescription: String? { "You're offline" }
}
