public import Foundation

/// The live ``WallClock``: `now` is `Date()`.
///
/// ```swift
/// let environment = Environment.live  // environment.clock is SystemClock()
/// ```
public struct SystemClock: WallClock {
  /// Creates the system clock.
  public init() {}

  /// The current instant, read from the system.
  public var now: Date { Date() }
}
