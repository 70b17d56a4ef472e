public import Effects

/// Shape 1, a reentrant cache. An actor that checks its cache, awaits a fetch, then stores what it
/// fetched: the actor is free while it awaits, so a second caller asking for the same avatar in
/// that window misses too, and fetches it again.
///
/// The fix, ``AvatarCache``: keep the fetch in flight in the cache, so that a second caller awaits
/// the first one's fetch.
public actor ReentrantAvatarCache {
  private let network: any Network
  private var avatars: [String: String] = [:]

  /// A cache with nothing in it, fetching through `environment`'s network.
  public init(environment: Environment = .current) {
    network = environment.network
  }

  /// The avatar of `user`: from the cache, else fetched (and kept). The bug: a caller who asks
  /// while a fetch is under way fetches again; the fix awaits the fetch under way.
  public func avatar(for user: String) async throws -> String {
    if let avatar = avatars[user] { return avatar }
    // The bug: the actor is free during this await, and nothing says a fetch is under way.
    let avatar = try await network.send(.get(avatarURL(for: user))).text ?? ""
    avatars[user] = avatar
    return avatar
  }
}

/// Shape 1, fixed: ``ReentrantAvatarCache`` with the fetch in flight kept in the cache, so that
/// every caller who asks while it runs awaits that one fetch.
public actor AvatarCache {
  private let network: any Network
  private var avatars: [String: Task<String, any Error>] = [:]

  /// A cache with nothing in it, fetching through `environment`'s network.
  public init(environment: Environment = .current) {
    network = environment.network
  }

  /// The avatar of `user`: from the cache or the fetch under way, else fetched (and kept). The fix:
  /// the fetch is in the cache before the first await, so a second caller awaits it.
  public func avatar(for user: String) async throws -> String {
    if let avatar = avatars[user] { return try await avatar.value }
    let network = network
    let fetch = Task { try await network.send(.get(avatarURL(for: user))).text ?? "" }
    avatars[user] = fetch  // before the await: a second caller finds it
    do {
      return try await fetch.value
    } catch {
      avatars[user] = nil
      throw error
    }
  }
}

/// Where shape 1's caches fetch a user's avatar from (``ReentrantAvatarCache`` fetches it twice;
/// ``AvatarCache``, once).
public func avatarURL(for user: String) -> String {
  "https://avatars.example.com/\(user)"
}
