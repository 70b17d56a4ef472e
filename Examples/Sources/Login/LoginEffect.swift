/// What the reducer asks the interactor to do: the side effects of a transition, as data, so the
/// reducer stays a pure function and its tests compare values.
public enum LoginEffect: Hashable, Sendable {
  /// Send `credentials` to the ``LoginService``, giving up after `timeout` of the environment's
  /// scheduler; the answer comes back as ``LoginAction/loginResponse(_:)``.
  case logIn(Credentials, timeout: Duration)
  /// Keep the session token.
  case storeToken(sessionToken: String)
  /// Forget the session token.
  case removeToken

  /// The identity of an effect that supersedes the one in flight: a new login cancels the one
  /// under way, and its answer is dropped. `nil` for effects that run side by side.
  ///
  /// ```swift
  /// EffectRunner(cancelInFlight: \LoginEffect.cancelID) { effect, send in … }
  /// ```
  public var cancelID: AnyHashable? {
    switch self {
    case .logIn: "logIn"
    case .storeToken, .removeToken: nil
    }
  }
}
