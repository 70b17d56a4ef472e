/// What a login response means for the screen — the seed's decision, as data.
public enum LoginDecision: Hashable, Sendable {
  /// Present an alert with `message`.
  case showAlert(message: String)
  /// Show the validation errors, one per line, under the form.
  case showValidationError(String)
  /// Keep the session token.
  case storeToken(sessionToken: String)
}
