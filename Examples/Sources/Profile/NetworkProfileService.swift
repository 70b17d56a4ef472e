public import Effects
public import Foundation

/// The profile service of the app: the user, from the API, over `environment.network`.
///
/// `GET https://api.example.com/users/{id}` answers `{"user": {"id": …, "name": …, "location": …}}`.
/// In a test the network is a `StubNetwork` playing a tape of that API (see `ProfileTapeTests`);
/// in a SwiftUI preview, ``ProfilePreview/environment``.
public struct NetworkProfileService: ProfileService {
  /// Where requests go: `environment.network`.
  public var environment: Environment

  /// A service over `environment`'s network.
  public init(environment: Environment = .current) {
    self.environment = environment
  }

  nonisolated(nonsending) public func fetchUser(id: User.ID) async throws -> User {
    let response: NetworkResponse
    do {
      response = try await environment.network.send(.get("https://api.example.com/users/\(id)"))
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      throw ProfileError(message: "You're offline")
    }
    guard response.isSuccess else { throw ProfileError(message: "The server answered \(response.status)") }
    return try response.decode(UserResponse.self).user.user
  }
}

/// The API's answer: `{"user": {…}}`.
private struct UserResponse: Decodable {
  struct Fields: Decodable {
    var id: String
    var name: String
    var location: String

    var user: User { User(id: id, name: name, location: location) }
  }

  var user: Fields
}

/// What the profile screen's SwiftUI previews run in: `Environment.preview`, its network playing
/// a tape of the API's answer for user 42 (`Tapes/users-42.json`, a resource of this module,
/// which `ProfileTapeTests` plays too).
///
/// ```swift
/// #Preview {
///   ProfileView(interactor: ProfileInteractor(
///     userID: "42",
///     service: NetworkProfileService(environment: ProfilePreview.environment),
///     environment: ProfilePreview.environment
///   ))
/// }
/// ```
public enum ProfilePreview {
  /// The tape of user 42's profile, as the app's resource.
  public static var tape: URL {
    // The resource is part of this module: it is there.
    Bundle.module.url(forResource: "users-42", withExtension: "json", subdirectory: "Tapes")!
  }

  /// `Environment.preview`, answering from ``tape``; offline (every request failing) when the
  /// tape cannot be read, which a test of this module would have reported.
  public static var environment: Environment {
    .preview(network: (try? NetworkTape(contentsOf: tape)) ?? NetworkTape())
  }
}
