public import Foundation

/// The current time, as a co-effect.
///
/// Code that reads `Date()` cannot be tested at a chosen instant; code that reads
/// `environment.clock.now` can:
///
/// ```swift
/// func greeting(environment: Environment = .current) -> String {
///   let hour = environment.calendar.component(.hour, from: environment.clock.now)
///   return hour < 12 ? "Good morning" : "Good afternoon"
/// }
///
/// @Test func greetsInTheMorning() {
///   var environment = Environment.test()
///   environment.clock = FixedClock(Date(timeIntervalSince1970: 8 * 3600))
///   #expect(greeting(environment: environment) == "Good morning")
/// }
/// ```
///
/// A conforming type must return the same kind of instant that `Date()` does (absolute time, not
/// uptime) and must be safe to read from any thread. The live value reads `Date()`;
/// ``FixedClock`` never moves. The test scheduler of `EffectsTestSupport` is a wall clock too, so
/// one virtual timeline can drive both `clock` and `scheduler`.
public protocol WallClock: Sendable {
  /// The current instant.
  var now: Date { get }
}
