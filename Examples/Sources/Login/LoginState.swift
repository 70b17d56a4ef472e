/// What the login screen shows: the form, whether a login is under way, and how the last one went.
///
/// ```text
/// editing ──submit──▶ logging in ──token──▶ logged in ──logOut──▶ editing
///    ▲                   │  └──validation errors / alert──┐
///    └───────────────────┴────────────────────────────────┘
/// ```
public struct LoginState: Hashable, Sendable {
  /// The email field.
  public var email: String
  /// The password field.
  public var password: String
  /// A login is under way: a spinner, and the form stays editable (submitting again supersedes it).
  public var isLoggingIn: Bool
  /// The server's validation errors, one per line, under the form; `nil` when there are none.
  public var validationMessage: String?
  /// The message of the alert on screen; `nil` when none is.
  public var alert: String?
  /// The session token is stored: the screen is done.
  public var isLoggedIn: Bool

  /// Creates a state: by default an empty form, nothing under way.
  public init(
    email: String = "",
    password: String = "",
    isLoggingIn: Bool = false,
    validationMessage: String? = nil,
    alert: String? = nil,
    isLoggedIn: Bool = false
  ) {
    self.email = email
    self.password = password
    self.isLoggingIn = isLoggingIn
    self.validationMessage = validationMessage
    self.alert = alert
    self.isLoggedIn = isLoggedIn
  }
}
