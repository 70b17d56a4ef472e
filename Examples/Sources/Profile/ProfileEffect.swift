/// What the reducer asks the interactor to do: the side effects of a transition, as data, so the
/// reducer stays a pure function and its tests compare values.
public enum ProfileEffect: Hashable, Sendable {
  /// Fetch the profile of `userID` from the ``ProfileService``, after waiting `delay` of the
  /// environment's scheduler (zero: at once).
  case fetchProfile(userID: User.ID, after: Duration = .zero)
}
