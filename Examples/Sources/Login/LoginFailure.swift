public import Foundation

/// Why a login got no answer: the message an alert shows.
///
/// It is `Equatable`, so the actions that carry it are, and tests can compare them.
public struct LoginFailure: LocalizedError, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong, for the user.
  public var message: String

  /// Creates a failure with `message`.
  public init(message: String) {
    self.message = message
  }

  /// Wraps any error the ``LoginService`` throws by its `localizedDescription`, as the seed's
  /// alert showed it; a `LoginFailure` stays itself.
  public init(_ error: any Error) {
    self = error as? LoginFailure ?? LoginFailure(message: error.localizedDescription)
  }

  /// The service took longer than the reducer's timeout.
  public static let timedOut = LoginFailure(message: "The login timed out")

  /// The message.
  public var errorDescription: String? { message }

  /// The message.
  public var description: String { message }
}
