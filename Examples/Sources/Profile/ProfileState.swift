/// What the profile screen shows: one value, so the screen is always in exactly one state.
///
/// ```text
/// initialized ──load──▶ loading ──fetched──▶ loaded
///                          ▲  └──fetchFailed──▶ failed
///                          └──────retry────────┘
/// ```
public enum ProfileState: Hashable, Sendable {
  /// Nothing asked for yet: the screen has not appeared.
  case initialized
  /// A fetch is under way (or waiting for its retry backoff): a spinner.
  case loading
  /// The profile, fetched.
  case loaded(User)
  /// The fetch failed: the error, and a Retry button.
  case failed(ProfileError)
}
