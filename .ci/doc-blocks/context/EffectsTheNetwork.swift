// What the blocks of Sources/Effects/Documentation.docc/Articles/TheNetwork.md assume and do not
// show: the app's profile type, its error, a view model that loads the signed-in user's profile,
// and the state a sign-out returns.
import Effects
import Foundation

struct Profile: Codable, Equatable, Sendable {
  var name: String
}

enum ProfileError: Error {
  case status(Int)
}

/// Loads the signed-in user's profile through `Environment.current.network`, showing a spinner
/// meanwhile.
@MainActor final class ProfileModel {
  private(set) var name: String?
  private(set) var isShowingSpinner = false
  private let environment: Environment

  init(environment: Environment = .current) {
    self.environment = environment
  }

  func load() async {
    isShowingSpinner = true
    defer { isShowingSpinner = false }
    guard let response = try? await environment.network.send(.get("https://api.example.com/me")),
      response.isSuccess,
      let profile = try? response.decode(Profile.self)
    else { return }
    name = profile.name
  }
}

enum State: Equatable {
  case signedIn(token: String)
  case signedOut
}
