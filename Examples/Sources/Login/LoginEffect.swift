/// What the login screen should do with a response: the decision, as data.
public enum LoginEffect: Hashable, Sendable {
  /// Present an alert with `message`.
  case showAlert(message: String)
  /// Show the validation errors, one per line, under the form.
  case showValidationError(String)
  /// Keep the session token.
  case storeToken(sessionToken: String)
}
