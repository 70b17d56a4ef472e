public import Foundation

/// The live ``WallClock``: `now` is `Date()`.
///
/// ```swift
/// let environment = Environment.live  // environment.clock is SystemClock()
/// ```
@usableFromInline
package struct SystemClock: WallClock {
  /// Creates the system clock.
  @usableFromInline
  package init() {}

  /// The current instant, read from the system.
  @usableFromInline
  package var now: Date { Date() }
}
