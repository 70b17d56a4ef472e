import Effects

/// An ``EventLog`` that keeps the events tracked through it.
final class EventRecorder: EventLog {
  struct Event: Equatable, Sendable {
    let name: String
    let properties: [String: String]
  }

  private let stored = Locked<[Event]>([])

  var events: [Event] {
    stored.snapshot
  }

  func track(event: String, properties: [String: String]) {
    stored.withLock { $0.append(Event(name: event, properties: properties)) }
  }
}
