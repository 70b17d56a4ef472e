import Effects
import EffectsTestSupport
import Login

/// The service, faked: each login is recorded by a spy when it goes out, and the spy's answer comes
/// back `latency` later, in the scheduler's virtual time — as a network round trip would.
struct LoginServiceDouble: LoginService {
  /// The logins, by credentials; stub it with the bodies.
  let logIns = Spy<Credentials, String>("loginService.logIn")
  let latency: Duration
  let scheduler: TestScheduler

  init(latency: Duration = .milliseconds(300), scheduler: TestScheduler) {
    self.latency = latency
    self.scheduler = scheduler
  }

  nonisolated(nonsending) func logIn(email: String, password: String) async throws -> String {
    let answer = Result { try logIns(Credentials(email: email, password: password)) }
    try await scheduler.sleep(for: latency)
    return try answer.get()
  }
}
