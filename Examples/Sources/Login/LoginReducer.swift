public import Effects

/// The login screen's decisions: a pure function from the current state and an action to the next
/// state and the effects to perform. It reads nothing and performs nothing; what a response means
/// is the seed's decision, ``decision(for:)``.
///
/// ```swift
/// let reducer = LoginReducer()
/// reducer.reduce(LoginState(email: "blob@example.com", password: "secret"), .submit)
/// // isLoggingIn, and [.logIn(Credentials(email: "blob@example.com", password: "secret"), timeout: .seconds(10))]
/// reducer.reduce(loggingIn, .loginResponse(.success(#"{"session_token":"abc"}"#)))
/// // isLoggedIn, and [.storeToken(sessionToken: "abc")]
/// ```
public struct LoginReducer: Hashable, Sendable {
  /// How long a login may take before it fails with ``LoginFailure/timedOut``.
  public var timeout: Duration

  /// Creates the reducer.
  public init(timeout: Duration = .seconds(10)) {
    self.timeout = timeout
  }

  /// The state after `action`, and the effects the interactor should perform.
  ///
  /// Submitting while a login is under way sends the form again, and the new login supersedes the
  /// one in flight (see ``LoginEffect/cancelID``). An answer nobody waits for, and a log out while
  /// logged out, change nothing.
  public func reduce(_ state: LoginState, _ action: LoginAction) -> Outcome<LoginState, LoginEffect> {
    var state = state
    switch action {
    case .emailChanged(let email):
      state.email = email
      return .pure(state)
    case .passwordChanged(let password):
      state.password = password
      return .pure(state)
    case .submit:
      guard !state.isLoggedIn else { return .pure(state) }
      state.isLoggingIn = true
      state.validationMessage = nil
      state.alert = nil
      let credentials = Credentials(email: state.email, password: state.password)
      return Outcome(value: state, effects: [.logIn(credentials, timeout: timeout)])
    case .loginResponse(let response):
      guard state.isLoggingIn else { return .pure(state) }
      state.isLoggingIn = false
      switch decision(for: response.mapError { $0 as any Error }) {
      case .storeToken(let token):
        state.isLoggedIn = true
        state.password = ""
        return Outcome(value: state, effects: [.storeToken(sessionToken: token)])
      case .showValidationError(let message):
        state.validationMessage = message
        return .pure(state)
      case .showAlert(let message):
        state.alert = message
        return .pure(state)
      }
    case .alertDismissed:
      state.alert = nil
      return .pure(state)
    case .logOut:
      guard state.isLoggedIn else { return .pure(state) }
      state.isLoggedIn = false
      return Outcome(value: state, effects: [.removeToken])
    }
  }
}
