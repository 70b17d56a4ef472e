/// What the user typed, as the login request sends it.
public struct Credentials: Hashable, Sendable {
  /// The email address.
  public var email: String
  /// The password.
  public var password: String

  /// Creates credentials.
  public init(email: String, password: String) {
    self.email = email
    self.password = password
  }
}
