import Foundation

/// The ``Environment/events`` of an environment that was given none: the live interpreter refuses
/// `.track` with it, and a direct `track` writes why the event went nowhere to standard error, so no
/// event is dropped without a word.
struct UnconfiguredEvents: EventLog {
  func track(event: String, properties: [String: String]) {
    warn(Self.refusal(event: event))
  }

  /// Why `event` was not logged, and what to configure.
  static func refusal(event: String) -> String {
    "no EventLog is configured, so the event \(String(reflecting: event)) cannot be logged; "
      + "set environment.events (for example at launch, before Environment.bootstrap(_:))"
  }
}
