/// Everything that can happen to the profile screen: what the user does, and what the service
/// answers. The interactor feeds each one to ``ProfileReducer/reduce(_:_:)``.
public enum ProfileCommand: Hashable, Sendable {
  /// The screen appeared: load the profile.
  case load
  /// The user tapped Retry after a failure.
  case retry
  /// The service answered with the user.
  case fetched(User)
  /// The service failed.
  case fetchFailed(ProfileError)
}
