public import Effects

/// The profile screen's decisions: a pure function from the current state and a command to the
/// next state and the effects to perform. It reads nothing and performs nothing, so every
/// transition is tested by comparing values.
///
/// ```swift
/// let reducer = ProfileReducer(userID: "42")
/// reducer.reduce(.initialized, .load)
/// // Outcome(value: .loading, effects: [.fetchProfile(userID: "42")])
/// reducer.reduce(.failed(offline), .retry)
/// // Outcome(value: .loading, effects: [.fetchProfile(userID: "42", after: .seconds(2))])
/// reducer.reduce(.loading, .load)
/// // Outcome(value: .loading, effects: []): already loading, nothing to do
/// ```
public struct ProfileReducer: Hashable, Sendable {
  /// Whose profile the screen shows.
  public var userID: User.ID
  /// How long a retry waits before fetching again, so that tapping Retry does not hit a failing
  /// server again in the same instant.
  public var retryBackoff: Duration

  /// Creates the reducer for `userID`'s profile.
  public init(userID: User.ID, retryBackoff: Duration = .seconds(2)) {
    self.userID = userID
    self.retryBackoff = retryBackoff
  }

  /// The state after `command`, and the effects that the interactor should perform.
  ///
  /// A command that does not apply to the state — loading while already loading, retrying what
  /// did not fail, an answer nobody is waiting for — leaves the state as it is and asks for
  /// nothing.
  public func reduce(_ state: ProfileState, _ command: ProfileCommand) -> Outcome<ProfileState, ProfileEffect> {
    switch (state, command) {
    case (.initialized, .load):
      return Outcome(value: .loading, effects: [.fetchProfile(userID: userID)])
    case (.loading, .fetched(let user)):
      return .pure(.loaded(user))
    case (.loading, .fetchFailed(let error)):
      return .pure(.failed(error))
    case (.failed, .retry):
      return Outcome(value: .loading, effects: [.fetchProfile(userID: userID, after: retryBackoff)])
    // Listed one by one, not with `default`: a new state or command does not compile until it
    // has been decided here.
    case (.initialized, .retry), (.initialized, .fetched), (.initialized, .fetchFailed),
      (.loading, .load), (.loading, .retry),
      (.loaded, .load), (.loaded, .retry), (.loaded, .fetched), (.loaded, .fetchFailed),
      (.failed, .load), (.failed, .fetched), (.failed, .fetchFailed):
      return .pure(state)
    }
  }
}
