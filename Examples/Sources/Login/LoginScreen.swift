public import Effects

/// Shows an error to the user.
public protocol AlertPresenter: Sendable {
  /// Presents `error` in an alert.
  func present(error: String)
}

/// Keeps the session token.
public protocol TokenStore: Sendable {
  /// Stores `sessionToken`, replacing any previous one.
  func set(sessionToken: String)
}

/// Shows validation errors under the form.
public protocol ValidationLabel: Sendable {
  /// Sets the label's text.
  func show(_ text: String)
}

/// The login screen's glue: calls the service, decides with ``action(for:)``, and performs the
/// decision through an interpreter. Only ``dispatch(_:)`` touches the world.
public struct LoginScreen: Sendable {
  /// Performs decisions.
  public let interpreter: Interpreter<LoginEffect>

  /// Creates a screen that performs its decisions through `interpreter`.
  public init(interpreter: Interpreter<LoginEffect>) {
    self.interpreter = interpreter
  }

  /// A screen whose decisions reach an alert presenter, a token store and a validation label.
  public init(alerts: any AlertPresenter, tokens: any TokenStore, label: any ValidationLabel) {
    self.init(interpreter: .login(alerts: alerts, tokens: tokens, label: label))
  }

  /// Handles a login response: decide, then perform.
  public func handle(_ response: Result<String, any Error>) throws {
    try dispatch(action(for: response))
  }

  /// Performs one decision.
  public func dispatch(_ effect: LoginEffect) throws {
    try interpreter.perform([effect])
  }
}

extension Interpreter where E == LoginEffect {
  /// The login screen's live interpreter: each effect reaches the one collaborator it concerns.
  public static func login(
    alerts: any AlertPresenter,
    tokens: any TokenStore,
    label: any ValidationLabel
  ) -> Self {
    Interpreter { effect in
      switch effect {
      case .showAlert(let message): alerts.present(error: message)
      case .showValidationError(let text): label.show(text)
      case .storeToken(let token): tokens.set(sessionToken: token)
      }
    }
  }
}
