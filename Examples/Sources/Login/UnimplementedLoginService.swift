/// The test value of ``LoginServiceKey``: a service that answers every login with a failure
/// saying what to do, so a test that forgot to give one sees it in the state, not on the network.
public struct UnimplementedLoginService: LoginService {
  /// Creates the service.
  public init() {}

  /// Throws a ``LoginFailure`` naming the fix.
  public nonisolated(nonsending) func logIn(email: String, password: String) async throws -> String {
    throw LoginFailure(message: "No LoginService in this environment: set environment.loginService")
  }
}
