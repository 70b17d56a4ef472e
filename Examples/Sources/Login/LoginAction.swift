/// Everything that can happen to the login screen: what the user does, and what the service
/// answers. The interactor feeds each one to ``LoginReducer/reduce(_:_:)``.
public enum LoginAction: Hashable, Sendable {
  /// The user edited the email field.
  case emailChanged(String)
  /// The user edited the password field.
  case passwordChanged(String)
  /// The user tapped Log In. While a login is under way, it supersedes it.
  case submit
  /// The login service answered: the raw body, or why there is none.
  case loginResponse(Result<String, LoginFailure>)
  /// The user dismissed the alert.
  case alertDismissed
  /// The user logged out.
  case logOut
}
