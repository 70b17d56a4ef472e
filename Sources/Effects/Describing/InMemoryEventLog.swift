/// An ``EventLog`` that keeps the events tracked through it: the in-memory analytics of a test
/// environment.
///
/// It is a reference type, so copies share their events: give it to the code under test and read
/// ``events`` afterwards.
///
/// ```swift
/// let log = InMemoryEventLog()
/// var environment = Environment.test()
/// environment.events = log
/// try Interpreter.live(environment: environment).perform([.track(event: "visited", properties: [:])])
/// #expect(log.events == [.init(name: "visited", properties: [:])])
/// ```
///
/// `Environment.test()` installs a fresh one; test support's `environment.trackedEvents` reads it
/// back without a cast.
public final class InMemoryEventLog: EventLog {
  /// One tracked event.
  public struct Event: Hashable, Sendable, CustomStringConvertible {
    /// The event's name.
    public var name: String
    /// The event's properties.
    public var properties: [String: String]

    /// Creates an event named `name` with `properties`.
    public init(name: String, properties: [String: String] = [:]) {
      self.name = name
      self.properties = properties
    }

    /// `visited ["id": "7"]`, with the properties sorted by key.
    public var description: String {
      guard !properties.isEmpty else { return name }
      let pairs = properties.sorted { $0.key < $1.key }.map {
        "\(String(reflecting: $0.key)): \(String(reflecting: $0.value))"
      }
      return "\(name) [\(pairs.joined(separator: ", "))]"
    }
  }

  private let stored = Locked<[Event]>([])

  /// Creates an empty log.
  public init() {}

  /// Every event tracked, in order.
  public var events: [Event] {
    stored.snapshot
  }

  /// Keeps the event.
  public func track(event: String, properties: [String: String]) {
    stored.withLock { $0.append(Event(name: event, properties: properties)) }
  }

  /// Forgets every event.
  public func clear() {
    stored.withLock { $0.removeAll() }
  }
}
