import Effects
import EffectsTestSupport
import Login

extension FeatureTester where State == LoginState, Action == LoginAction, E == LoginEffect {
  /// A tester of the login screen: the reducer the interactor uses (its timeout 10 s), and the
  /// runner the interactor performs its effects with, against `environment`.
  static func login(
    environment: Environment,
    state: LoginState = .filled,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> FeatureTester {
    FeatureTester(
      initialState: state,
      reducer: LoginReducer(timeout: .seconds(10)).reduce,
      effects: LoginInteractor.effects(environment: environment),
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}

extension Environment {
  /// A test environment on `scheduler` whose network is `network`.
  static func login(_ network: StubNetwork, scheduler: TestScheduler = .current) -> Environment {
    var environment = Environment.test(scheduler: scheduler)
    environment.network = network
    return environment
  }
}

extension NetworkRequest {
  /// The request a login with `credentials` sends.
  static func logIn(_ credentials: Credentials) -> NetworkRequest {
    LoginService().request(for: credentials)
  }
}
