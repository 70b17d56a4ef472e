/// Where profiles come from: in the app, the network; in tests, a spy.
///
/// A live service is a few lines around `URLSession`:
///
/// ```swift
/// struct HTTPProfileService: ProfileService {
///   nonisolated(nonsending) func fetchUser(id: User.ID) async throws -> User {
///     let url = URL(string: "https://api.example.com/users/\(id)")!
///     let (data, _) = try await URLSession.shared.data(from: url)
///     return try JSONDecoder().decode(UserResponse.self, from: data).user
///   }
/// }
/// ```
public protocol ProfileService: Sendable {
  /// Fetches the user with `id`.
  ///
  /// It runs on its caller's actor (`nonisolated(nonsending)`), like `WorkScheduler.sleep(for:)`: the
  /// `@MainActor` ``ProfileInteractor`` calls it without hopping to another executor. (A plain
  /// `nonisolated` requirement would be tested just as exactly: `withVirtualTime` follows the hop.)
  ///
  /// - Throws: why the profile could not be fetched; `CancellationError` when the task is cancelled.
  nonisolated(nonsending) func fetchUser(id: User.ID) async throws -> User
}
