import Foundation

/// The built-in ``Environment/events`` co-effect.
package enum EventsKey: BuiltInKey {
  package static var slot: Int { BuiltInSlot.events.rawValue }
  package static let member = "events"
  package static let liveValue: any EventLog = UnconfiguredEvents()
  package static var testValue: any EventLog { InMemoryEventLog() }
}

extension Environment {
  /// Where `.track` logs analytics events. Live: none — install your analytics SDK's
  /// ``EventLog`` at launch, or `.track` fails naming this property; in a test environment, an
  /// ``InMemoryEventLog`` that keeps the events.
  ///
  /// ```swift
  /// var environment = Environment.live
  /// environment.events = AmplitudeEvents()
  /// Environment.bootstrap(environment)
  /// ```
  public var events: any EventLog {
    get { self[builtIn: EventsKey.self] }
    set { self[builtIn: EventsKey.self] = newValue }
  }
}
