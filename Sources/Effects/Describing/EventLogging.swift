/// Where the ``Effect/track(event:properties:)`` effect sends analytics events.
///
/// Wrap your analytics SDK in a conforming type and give it to ``Interpreter/live(environment:console:files:events:onFailure:)``.
/// A conforming type is safe to call from any thread and must not drop events silently.
///
/// ```swift
/// struct AmplitudeEvents: EventLogging {
///   func log(name: String, properties: [String: String]) {
///     Amplitude.instance().logEvent(name, withEventProperties: properties)
///   }
/// }
///
/// let interpreter = Interpreter.live(events: AmplitudeEvents())
/// ```
///
/// Without one, the live interpreter fails on a `.track` effect (naming the event and what to
/// configure) instead of dropping it.
public protocol EventLogging: Sendable {
  /// Logs the event `name` with its `properties`.
  func log(name: String, properties: [String: String])
}
