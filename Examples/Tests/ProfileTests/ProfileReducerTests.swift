import Effects
import EffectsTestSupport
import Profile
import Testing

/// The reducer, tested as a pure function: each transition of the state diagram gives exactly
/// this state and exactly these effects; every other command leaves the state alone and asks for
/// nothing.
@Suite struct ProfileReducerTests {
  let reducer = ProfileReducer(userID: "42", retryBackoff: .seconds(2))

  // MARK: Valid transitions

  @Test func loadingStartsTheFetchAtOnce() {
    #expect(reducer.reduce(.initialized, .load) == Outcome(value: .loading, effects: [.fetchProfile(userID: "42")]))
  }

  @Test func theFetchedUserIsShown() {
    #expect(reducer.reduce(.loading, .fetched(.blob)) == Outcome(value: .loaded(.blob), effects: []))
  }

  @Test func aFailedFetchShowsTheError() {
    #expect(reducer.reduce(.loading, .fetchFailed(.offline)) == Outcome(value: .failed(.offline), effects: []))
  }

  @Test func retryingLoadsAgainAfterTheBackoff() {
    #expect(
      reducer.reduce(.failed(.offline), .retry)
        == Outcome(value: .loading, effects: [.fetchProfile(userID: "42", after: .seconds(2))])
    )
  }

  @Test func theBackoffIsTheReducersOwn() {
    let patient = ProfileReducer(userID: "7", retryBackoff: .milliseconds(500))
    assertEffects(
      of: patient.reduce(.failed(.offline), .retry),
      [.fetchProfile(userID: "7", after: .milliseconds(500))]
    )
  }

  @Test func aLoadThatFailsThenARetryEndsWithTheUserAfterTwoFetches() {
    var state = ProfileState.initialized
    var effects: [ProfileEffect] = []
    for command in [ProfileCommand.load, .fetchFailed(.offline), .retry, .fetched(.blob)] {
      let outcome = reducer.reduce(state, command)
      state = outcome.value
      effects += outcome.effects
    }
    #expect(state == .loaded(.blob))
    #expect(effects == [.fetchProfile(userID: "42"), .fetchProfile(userID: "42", after: .seconds(2))])
  }

  // MARK: Invalid transitions

  /// Every (state, command) pair that is not a transition above.
  static let ignored: [(ProfileState, ProfileCommand)] = [
    (.initialized, .retry),
    (.initialized, .fetched(.blob)),
    (.initialized, .fetchFailed(.offline)),
    (.loading, .load),
    (.loading, .retry),
    (.loaded(.blob), .load),
    (.loaded(.blob), .retry),
    (.loaded(.blob), .fetched(User(id: "42", name: "Blob II", location: "Paris"))),
    (.loaded(.blob), .fetchFailed(.offline)),
    (.failed(.offline), .load),
    (.failed(.offline), .fetched(.blob)),
    (.failed(.offline), .fetchFailed(ProfileError(message: "Server error"))),
  ]

  @Test(arguments: ignored)
  func aCommandThatDoesNotApplyChangesNothingAndDoesNothing(state: ProfileState, command: ProfileCommand) {
    #expect(reducer.reduce(state, command) == .pure(state))
  }

  /// The two lists above are the whole state machine: every state meets every command once.
  @Test func theTransitionsAndTheIgnoredCommandsCoverEveryPair() {
    let transitions: [(ProfileState, ProfileCommand)] = [
      (.initialized, .load), (.loading, .fetched(.blob)), (.loading, .fetchFailed(.offline)),
      (.failed(.offline), .retry),
    ]
    let covered = (transitions + Self.ignored).map { "\(Kind.of($0.0)) + \(Kind.of($0.1))" }
    let everyPair = Kind.states.flatMap { state in Kind.commands.map { "\(state) + \($0)" } }
    #expect(covered.sorted() == everyPair.sorted())
  }
}

/// The name of a state's or a command's case, without its payload.
private enum Kind {
  static let states = ["initialized", "loading", "loaded", "failed"]
  static let commands = ["load", "retry", "fetched", "fetchFailed"]

  static func of(_ state: ProfileState) -> String {
    switch state {
    case .initialized: "initialized"
    case .loading: "loading"
    case .loaded: "loaded"
    case .failed: "failed"
    }
  }

  static func of(_ command: ProfileCommand) -> String {
    switch command {
    case .load: "load"
    case .retry: "retry"
    case .fetched: "fetched"
    case .fetchFailed: "fetchFailed"
    }
  }
}
