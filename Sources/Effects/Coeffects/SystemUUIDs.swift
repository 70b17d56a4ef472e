package import Foundation

/// The live ``UUIDGenerator``: each call is `UUID()`, a random (version 4) identifier.
///
/// ```swift
/// let environment = Environment.live  // environment.uuid is SystemUUIDs()
/// ```
package struct SystemUUIDs: UUIDGenerator {
  /// Creates the system's generator.
  package init() {}

  /// `UUID()`.
  package func callAsFunction() -> UUID {
    UUID()
  }
}
