/// Why the profile could not be loaded: the message the screen shows next to its Retry button.
///
/// It is `Equatable`, so the states and commands that carry it are, and tests can compare them.
public struct ProfileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong, for the user.
  public var message: String

  /// Creates an error with `message`.
  public init(message: String) {
    self.message = message
  }

  /// Wraps any error a ``ProfileService`` throws: a `ProfileError` stays itself, any other error
  /// keeps its description.
  public init(_ error: any Error) {
    self = error as? ProfileError ?? ProfileError(message: String(describing: error))
  }

  /// The message.
  public var description: String { message }
}
