public import Foundation

/// A ``WallClock`` that always answers the same instant: the in-core double for `clock`.
///
/// ```swift
/// var environment = Environment.test()
/// environment.clock = FixedClock(Date(timeIntervalSince1970: 0))
/// #expect(environment.clock.now == Date(timeIntervalSince1970: 0))
/// ```
public struct FixedClock: WallClock, Hashable {
  /// The instant this clock answers; change it to move time by hand.
  public var now: Date

  /// Creates a clock stopped at `now`.
  public init(_ now: Date) {
    self.now = now
  }
}
