/// Where the ``Effect/track(event:properties:)`` effect sends analytics events.
///
/// Wrap your analytics SDK in a conforming type and set it as the environment's
/// ``Environment/events``; the live interpreter performs `.track(event:properties:)` as
/// `events.track(event:properties:)`, the same words. A conforming type is safe to call from any
/// thread and must not drop events silently.
///
/// ```swift
/// struct AmplitudeEvents: EventLog {
///   func track(event: String, properties: [String: String]) {
///     Amplitude.instance().logEvent(event, withEventProperties: properties)
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
public protocol EventLog: Sendable {
  /// Tracks `event` with its `properties`: sends it to analytics.
  func track(event: String, properties: [String: String])
}
