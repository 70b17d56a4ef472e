public import Effects

/// The login screen's interactor: it holds the screen's ``LoginState``, decides every change with
/// ``LoginReducer``, and performs the reducer's effects through an `EffectRunner` — the only part
/// that touches the world: the ``LoginService`` over `environment.network`, the environment's
/// scheduler for the timeout, and `environment.defaults` for the token.
///
/// A view controller sends actions and renders states:
///
/// ```swift
/// final class LoginViewController: UIViewController {
///   let interactor = LoginInteractor()
///
///   override func viewDidLoad() {
///     super.viewDidLoad()
///     interactor.onStateChange = { [weak self] state in self?.render(state) }
///   }
///
///   @objc func emailChanged(_ field: UITextField) { interactor.send(.emailChanged(field.text ?? "")) }
///   @objc func logInTapped() { interactor.send(.submit) }
/// }
/// ```
///
/// Every effect is performed by the runner ``effects(service:environment:)`` makes, which a test hands to
/// a `FeatureTester` with the reducer: the feature is then tested step by step, exhaustively, on the
/// code the app runs — cancelling a login that a new submit supersedes included.
@MainActor
public final class LoginInteractor {
  /// What the screen shows now.
  public private(set) var state: LoginState

  /// Called with each new state, after ``state`` has changed (not for actions that change nothing).
  public var onStateChange: ((LoginState) -> Void)?

  private let reducer: LoginReducer
  private let effects: EffectRunner<LoginEffect, LoginAction>

  /// Creates the interactor of the login screen.
  ///
  /// - Parameters:
  ///   - state: Where the screen starts: by default an empty form.
  ///   - reducer: The decisions, with their timeout.
  ///   - service: The login endpoint.
  ///   - environment: The world: `network`, `scheduler` and `defaults`.
  public init(
    state: LoginState = LoginState(),
    reducer: LoginReducer = LoginReducer(),
    service: LoginService = LoginService(),
    environment: Environment = .current
  ) {
    self.state = state
    self.reducer = reducer
    self.effects = Self.effects(service: service, environment: environment)
  }

  /// Handles `action`: the reducer decides the next state and the effects, then the interactor
  /// publishes the state and starts the effects (a new login cancels the one in flight).
  public func send(_ action: LoginAction) {
    let outcome = reducer.reduce(state, action)
    if outcome.value != state {
      state = outcome.value
      onStateChange?(state)
    }
    // Weakly: a screen closed while a login runs goes away, and its login is cancelled.
    effects.start(outcome.effects) { [weak self] in self?.send($0) }
  }

  /// The runner that performs the login screen's effects with `service` against `environment`: each in a task of
  /// its own, a new `.logIn` cancelling the one in flight (``LoginEffect/cancelID``).
  ///
  /// The interactor runs every effect through it; a test hands a new one to a `FeatureTester`, so
  /// what the test checks is what the app does:
  ///
  /// ```swift
  /// let tester = FeatureTester(
  ///   initialState: LoginState(),
  ///   reducer: LoginReducer().reduce,
  ///   effects: LoginInteractor.effects(environment: environment)
  /// )
  /// ```
  public static func effects(
    service: LoginService = LoginService(),
    environment: Environment
  ) -> EffectRunner<LoginEffect, LoginAction> {
    EffectRunner(cancelInFlight: \.cancelID) { effect, send in
      await perform(effect, service: service, environment: environment, send: send)
    }
  }

  /// Performs one effect with `service` against `environment`, and feeds the service's answer
  /// back with `send`.
  ///
  /// A cancelled login sends nothing: nobody is waiting for its answer.
  public static func perform(
    _ effect: LoginEffect,
    service: LoginService = LoginService(),
    environment: Environment,
    send: @MainActor (LoginAction) -> Void
  ) async {
    switch effect {
    case .logIn(let credentials, let timeout):
      do {
        let body = try await logIn(credentials, with: service, timeout: timeout, environment: environment)
        send(.loginResponse(.success(body)))
      } catch is CancellationError {
        // Superseded by a new login, or the screen is gone.
      } catch {
        send(.loginResponse(.failure(LoginFailure(error))))
      }
    case .storeToken(let token):
      // A real app keeps it in the Keychain: the Keychain example has a store for that.
      environment.defaults.set(.string(token), for: sessionTokenKey)
    case .removeToken:
      environment.defaults.removeValue(for: sessionTokenKey)
    }
  }

  /// The defaults key the session token is kept under.
  public static let sessionTokenKey = "sessionToken"

  /// Asks the service, racing its answer against `timeout` on the environment's scheduler.
  private static func logIn(
    _ credentials: Credentials,
    with service: LoginService,
    timeout: Duration,
    environment: Environment
  ) async throws -> String {
    try await withThrowingTaskGroup(of: String.self) { group in
      group.addTask {
        try await service.logIn(credentials, over: environment.network)
      }
      group.addTask {
        try await environment.continuousClock.sleep(for: timeout)
        throw LoginFailure.timedOut
      }
      defer { group.cancelAll() }
      guard let body = try await group.next() else { throw CancellationError() }
      return body
    }
  }
}
