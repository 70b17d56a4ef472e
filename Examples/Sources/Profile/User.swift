/// A user, as the profile screen shows them.
public struct User: Identifiable, Hashable, Sendable {
  /// The user's identifier on the server.
  public var id: String
  /// The name shown at the top of the profile.
  public var name: String
  /// Where the user lives, as they wrote it.
  public var location: String

  /// Creates a user.
  public init(id: String, name: String, location: String) {
    self.id = id
    self.name = name
    self.location = location
  }
}
