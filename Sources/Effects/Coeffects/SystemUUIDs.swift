public import Foundation

/// The live ``UUIDGenerating``: each call is `UUID()`, a random (version 4) identifier.
///
/// ```swift
/// let environment = Environment.live  // environment.uuid is SystemUUIDs()
/// ```
public struct SystemUUIDs: UUIDGenerating {
  /// Creates the system's generator.
  public init() {}

  /// `UUID()`.
  public func callAsFunction() -> UUID {
    UUID()
  }
}
