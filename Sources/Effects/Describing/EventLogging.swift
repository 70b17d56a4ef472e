/// Where the ``Effect/track(event:properties:)`` effect sends analytics events.
///
/// Wrap your analytics SDK in a conforming type and set it as the environment's
/// ``Environment/events``; ``Interpreter/live(environment:onFailure:)`` logs through it. A
/// conforming type is safe to call from any thread and must not drop events silently.
///
/// ```swift
/// struct AmplitudeEvents: EventLogging {
///   func log(name: String, properties: [String: String]) {
///     Amplitude.instance().logEvent(name, withEventProperties: properties)
///   }
/// }
///
/// var environment = Environment.live
/// environment.events = AmplitudeEvents()
/// Environment.bootstrap(environment)
/// ```
///
/// Without one, the live interpreter fails on a `.track` effect (naming the event and what to
/// configure) instead of dropping it. A test environment keeps events in an ``InMemoryEventLog``.
public protocol EventLogging: Sendable {
  /// Logs the event `name` with its `properties`.
  func log(name: String, properties: [String: String])
}
