/// Where logins go: in the app, the network; in tests, a double. Read through
/// `environment.loginService`, a co-effect (``LoginServiceKey``).
///
/// The one requirement is what varies between the live service and a double: the raw body the
/// server answered, which ``decision(for:)`` reads.
public protocol LoginService: Sendable {
  /// Sends the credentials and returns the response's body, whatever its status.
  ///
  /// It runs on its caller's actor (`nonisolated(nonsending)`), like `Scheduling.sleep(for:)`.
  ///
  /// - Throws: why there is no answer (offline, …); `CancellationError` when the task is cancelled.
  nonisolated(nonsending) func logIn(email: String, password: String) async throws -> String
}
