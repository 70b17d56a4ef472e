import Effects
import EffectsTestSupport
import Profile

extension FeatureTester where State == ProfileState, Action == ProfileCommand, E == ProfileEffect {
  /// A tester of user 42's profile screen, whose retry backoff is `backoff`: the reducer the
  /// interactor uses, and its effects performed by `ProfileInteractor.perform` — the function the
  /// interactor runs them with — against `service`, on the test's virtual time.
  static func profile(
    service: ProfileServiceDouble,
    backoff: Duration = SpiedProfileInteractor.backoff,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> FeatureTester {
    FeatureTester(
      initialState: .initialized,
      reducer: ProfileReducer(userID: "42", retryBackoff: backoff).reduce,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    ) { effect, send in
      await ProfileInteractor.perform(effect, service: service, environment: .current, send: send)
    }
  }
}
