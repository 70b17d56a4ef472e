// What the `LoginInteractor` block of Sources/Effects/Documentation.docc/Articles/EffectsAsData.md
// assumes and does not show: a login feature whose login request is an effect that waits, the
// reducer that asks for it, and the function that performs one effect.
import Effects

public struct LoginState: Equatable, Sendable {
  public var email = ""
  public var password = ""
  public var isLoggingIn = false
  public var isLoggedIn = false
}

public enum LoginAction: Equatable, Sendable {
  case submit
  case loginResponse(succeeded: Bool)
}

enum LoginEffect: Equatable, Sendable {
  case logIn(email: String, password: String)
  case showAlert(String)

  /// A new login supersedes the one in flight; other effects run side by side.
  var cancelID: String? {
    if case .logIn = self { "logIn" } else { nil }
  }
}

struct LoginReducer {
  func reduce(_ state: LoginState, _ action: LoginAction) -> Outcome<LoginState, LoginEffect> {
    var state = state
    switch action {
    case .submit:
      state.isLoggingIn = true
      return Outcome(value: state, effects: [.logIn(email: state.email, password: state.password)])
    case .loginResponse(let succeeded):
      state.isLoggingIn = false
      state.isLoggedIn = succeeded
      return Outcome(value: state, effects: succeeded ? [] : [.showAlert("Wrong password")])
    }
  }
}

extension LoginInteractor {
  static func perform(
    _ effect: LoginEffect,
    environment: Environment,
    send: @escaping @MainActor (LoginAction) -> Void
  ) async {
    switch effect {
    case .logIn:
      let response = try? await environment.network.send(.post("https://api.example.com/login"))
      send(.loginResponse(succeeded: response?.isSuccess ?? false))
    case .showAlert(let message):
      environment.console.print(message)
    }
  }
}
