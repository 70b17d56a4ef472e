public import Effects

/// The login service as an app-defined co-effect: ``HTTPLoginService`` in the app, and
/// ``UnimplementedLoginService`` in a test environment that was not given one.
///
/// ```swift
/// var environment = Environment.test()
/// environment.loginService = LoginServiceDouble()
/// ```
public enum LoginServiceKey: CoeffectKey {
  /// The network.
  public static let liveValue: any LoginService = HTTPLoginService()
  /// A service that fails every login, naming the fix.
  public static let testValue: any LoginService = UnimplementedLoginService()
}

extension Environment {
  /// Where logins go (``LoginServiceKey``).
  public var loginService: any LoginService {
    get { self[LoginServiceKey.self] }
    set { self[LoginServiceKey.self] = newValue }
  }
}
