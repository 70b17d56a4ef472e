import Effects
import EffectsTestSupport
import Foundation
import Login
import Testing

/// The login feature, tested end to end on virtual time with a `FeatureTester`: the reducer the
/// interactor uses, and its effects performed by the interactor's own `EffectRunner` — a new login
/// cancelling the one in flight as in the app. Each step states the new state, the effects asked
/// for, and the service's answer at the virtual instant it arrives; `finish()` checks that nothing
/// else happened and nothing is left running.
///
/// The last test drives the interactor itself by hand, the plain way.
@MainActor
@Suite struct LoginInteractorTests {
  let latency = Duration.milliseconds(300)

  @Test func typingThenSubmittingStoresTheTokenWhenTheServiceAnswers() async {
    for _ in 0..<100 {
      await withVirtualTime { scheduler in
        let network = StubNetwork()
        network.stub(.logIn(.blob), .ok(Body.token), after: latency)
        let environment = Environment.login(network, scheduler: scheduler)
        let tester = FeatureTester.login(environment: environment, state: LoginState())

        await tester.send(.emailChanged("blob@example.com")) { $0.email = "blob@example.com" }
        await tester.send(.passwordChanged("secret")) { $0.password = "secret" }
        await tester.send(.submit) { $0.isLoggingIn = true }
        tester.assertEffects([.logIn(.blob, timeout: .seconds(10))])
        // The request is out: a JSON POST, the same bytes on every run.
        network.assertRequests([
          .post(
            "https://api.example.com/login",
            headers: ["Content-Type": "application/json"],
            body: Data(#"{"email":"blob@example.com","password":"secret"}"#.utf8)
          )
        ])

        await tester.advance(by: latency - .milliseconds(1))
        await tester.advance(by: .milliseconds(1))  // fails if the answer came before
        await tester.receive(.loginResponse(.success(Body.token))) {
          $0.isLoggingIn = false
          $0.isLoggedIn = true
          $0.password = ""
        }
        tester.assertEffects([.storeToken(sessionToken: "user_session")])
        await tester.finish()
        #expect(environment.defaults.value(for: LoginInteractor.sessionTokenKey) == "user_session")
      }
    }
  }

  @Test(.virtualTime) func validationErrorsAreShownUnderTheFormOnePerLine() async {
    let network = StubNetwork()
    network.stub(.logIn(.blob), .ok(Body.validationErrors), after: latency)
    let tester = FeatureTester.login(environment: .login(network))

    await tester.send(.submit) { $0.isLoggingIn = true }
    tester.assertEffects([.logIn(.blob, timeout: .seconds(10))])
    await tester.advance(by: latency)
    await tester.receive(.loginResponse(.success(Body.validationErrors))) {
      $0.isLoggingIn = false
      $0.validationMessage = "Not\nA\nGood\nData"
    }
    await tester.finish()
  }

  @Test(.virtualTime) func aNetworkFailureShowsItsErrorInAnAlertUntilDismissed() async {
    let network = StubNetwork()
    let offline = URLError(.notConnectedToInternet)
    network.stub(.logIn(.blob), throwing: offline, after: latency)
    let tester = FeatureTester.login(environment: .login(network))

    await tester.send(.submit) { $0.isLoggingIn = true }
    tester.assertEffects([.logIn(.blob, timeout: .seconds(10))])
    await tester.advance(by: latency)
    await tester.receive(.loginResponse(.failure(LoginFailure(offline)))) {
      $0.isLoggingIn = false
      $0.alert = offline.localizedDescription
    }
    await tester.send(.alertDismissed) { $0.alert = nil }
    await tester.finish()
  }

  /// The two responses the seed's original code forgot: each is an alert, and nothing is stored.
  @Test(.virtualTime, arguments: [Body.tokenAndErrors, Body.neither])
  func aResponseWithBothOrNeitherIsAnAlertAndStoresNothing(_ body: String) async {
    let network = StubNetwork()
    network.stub(.logIn(.blob), .ok(body), after: latency)
    let environment = Environment.login(network)
    let tester = FeatureTester.login(environment: environment)

    await tester.send(.submit) { $0.isLoggingIn = true }
    tester.assertEffects([.logIn(.blob, timeout: .seconds(10))])
    await tester.advance(by: latency)
    await tester.receive(.loginResponse(.success(body))) {
      $0.isLoggingIn = false
      $0.alert = unexpectedResponseMessage
    }
    await tester.finish()
    #expect(environment.defaults.value(for: LoginInteractor.sessionTokenKey) == nil)
  }

  @Test func submittingAgainCancelsTheLoginInFlightAndOnlyTheNewAnswerCounts() async {
    for _ in 0..<100 {
      await withVirtualTime { scheduler in
        let fixed = Credentials(email: "blob@example.org", password: "secret")
        let network = StubNetwork()
        network.stub(.logIn(.blob), .ok(Body.validationErrors), after: latency)
        network.stub(.logIn(fixed), .ok(Body.token), after: latency)
        let tester = FeatureTester.login(environment: .login(network, scheduler: scheduler))

        await tester.send(.submit) { $0.isLoggingIn = true }
        tester.assertEffects([.logIn(.blob, timeout: .seconds(10))])
        await tester.advance(by: .milliseconds(200))
        await tester.send(.emailChanged(fixed.email)) { $0.email = fixed.email }
        await tester.send(.submit)  // already logging in: the new login supersedes the first
        tester.assertEffects([.logIn(fixed, timeout: .seconds(10))])
        network.assertRequests([.logIn(.blob), .logIn(fixed)])

        await tester.advance(by: latency)  // the first would have answered at 300 ms: it is gone
        await tester.receive(.loginResponse(.success(Body.token))) {
          $0.isLoggingIn = false
          $0.isLoggedIn = true
          $0.password = ""
        }
        tester.assertEffects([.storeToken(sessionToken: "user_session")])
        #expect(scheduler.elapsed == .milliseconds(500))
        await tester.finish()
      }
    }
  }

  @Test(.virtualTime) func aLoginSlowerThanTheTimeoutFailsWithAnAlertAtTheTimeout() async {
    let network = StubNetwork()
    network.stub(.logIn(.blob), .ok(Body.token), after: .seconds(30))
    let tester = FeatureTester.login(environment: .login(network))

    await tester.send(.submit) { $0.isLoggingIn = true }
    tester.assertEffects([.logIn(.blob, timeout: .seconds(10))])
    await tester.advance(by: .milliseconds(9_999))
    await tester.advance(by: .milliseconds(1))
    await tester.receive(.loginResponse(.failure(.timedOut))) {
      $0.isLoggingIn = false
      $0.alert = "The login timed out"
    }
    await tester.finish()  // the request was cancelled: nothing pending at 30 s
  }

  @Test(.virtualTime) func loggingOutForgetsTheToken() async {
    let network = StubNetwork()
    let environment = Environment.login(network)
    environment.defaults.set("user_session", for: LoginInteractor.sessionTokenKey)
    let tester = FeatureTester.login(
      environment: environment,
      state: LoginState(email: "blob@example.com", isLoggedIn: true)
    )

    await tester.send(.submit)  // logged in: nothing to submit
    await tester.send(.logOut) { $0.isLoggedIn = false }
    tester.assertEffects([.removeToken])
    await tester.send(.logOut)  // logged out already: nothing to do
    await tester.finish()
    #expect(environment.defaults.value(for: LoginInteractor.sessionTokenKey) == nil)
    network.assertNoRequests()
  }

  /// A test environment's network answers no request it was not told about: the request is
  /// reported as a test failure, and the login fails with an alert — never the real network.
  @Test(.virtualTime) func withoutAStubTheRequestIsReportedAndNeverReachesTheNetwork() async {
    let tester = FeatureTester.login(environment: .test(scheduler: .current))
    let failure = LoginFailure(StubNetworkError(request: .logIn(.blob)))

    await withKnownIssue {
      await tester.send(.submit) { $0.isLoggingIn = true }
      tester.assertEffects([.logIn(.blob, timeout: .seconds(10))])
      await tester.receive(.loginResponse(.failure(failure))) {
        $0.isLoggingIn = false
        $0.alert = failure.message
      }
    } matching: { issue in
      issue.description.contains("StubNetwork got a request no stub matches: POST https://api.example.com/login")
    }
    await tester.finish()
  }

  /// A screen closed while its login runs goes away at once, and its login is cancelled: the
  /// runner holds the interactor's `send` weakly, so nothing keeps the interactor alive.
  @Test(.virtualTime) func aScreenClosedWhileALoginRunsGoesAwayAndItsLoginIsCancelled() async {
    let network = StubNetwork()
    network.stub(.logIn(.blob), .ok(Body.token), after: latency)
    let environment = Environment.login(network)
    weak var closed: LoginInteractor?
    do {
      let interactor = LoginInteractor(state: .filled, environment: environment)
      interactor.send(.submit)
      await TestScheduler.current.advance(by: .milliseconds(100))  // the request is out
      closed = interactor
    }
    #expect(closed == nil)
    await TestScheduler.current.advance(by: latency)
    network.assertRequests([.logIn(.blob)])
    #expect(environment.defaults.value(for: LoginInteractor.sessionTokenKey) == nil)
  }

  /// The plain way, by hand: the interactor itself, a spied service and the states it publishes,
  /// on a scheduler the test moves. A second submit cancels the first login.
  @Test(.virtualTime) func theInteractorByHandCancelsTheFirstLoginWhenSubmittedAgain() async {
    let scheduler = TestScheduler.current
    let network = StubNetwork()
    network.stub(.logIn(.blob), .ok(Body.validationErrors), after: latency)
    network.stub(.logIn(.blob), .ok(Body.token), after: latency)
    let environment = Environment.login(network, scheduler: scheduler)
    let states = TestObserver<LoginState, Never>()
    let interactor = LoginInteractor(state: .filled, environment: environment)
    interactor.onStateChange = states.send

    interactor.send(.submit)
    await scheduler.advance(by: .milliseconds(100))
    interactor.send(.submit)
    await scheduler.advance(by: latency)
    #expect(interactor.state == LoginState(email: "blob@example.com", isLoggedIn: true))
    network.assertRequests([.logIn(.blob), .logIn(.blob)])
    states.assertValues([
      LoginState(email: "blob@example.com", password: "secret", isLoggingIn: true),
      LoginState(email: "blob@example.com", isLoggedIn: true),
    ])
    #expect(environment.defaults.value(for: LoginInteractor.sessionTokenKey) == "user_session")
    scheduler.assertNoPendingWork()
  }
}
