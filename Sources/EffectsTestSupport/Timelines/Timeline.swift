import Effects

/// What an async sequence does over virtual time: each value, and its end — finished or failed —
/// at the instant it happens, measured as ``TestScheduler/elapsed`` (the time since the scope
/// started).
///
/// A timeline is both sides of a test of a sequence: the input a test plays on the scheduler
/// (``TestScheduler/sequence(playing:fileID:filePath:line:column:)->AsyncStream<Element>``), and
/// the output a ``TestObserver`` records and
/// ``TestObserver/assertTimeline(_:fileID:filePath:line:column:)-(Timeline<Value,Failure>,_,_,_,_)``
/// checks.
///
/// ```swift
/// @Test(.virtualTime) func typingIsDebounced() async {
///   let scheduler = TestScheduler.current
///   let typed = scheduler.sequence(playing: [
///     .value("p", at: .zero),
///     .value("pi", at: .milliseconds(100)),
///     .value("piz", at: .milliseconds(200)),
///     .finished(at: .seconds(1)),
///   ])
///   let clock = Environment.current.continuousClock
///   let queries = TestObserver(observing: typed.debounce(for: .milliseconds(300), clock: clock))
///   await scheduler.advance(by: .seconds(1))
///   queries.assertTimeline([
///     .value("piz", at: .milliseconds(500)),
///     .finished(at: .seconds(1)),
///   ])
/// }
/// ```
///
/// Events are in the order they happen; several may share an instant. A timeline without an end
/// is still open: as an expectation, it says "these events so far, and no end yet". A diagram
/// spells the same thing in one line (``init(diagram:tick:fileID:filePath:line:column:)``).
public struct Timeline<Element, Failure: Error> {
  /// One thing a sequence did, and when.
  public enum Event {
    /// The sequence produced `value` at `instant`.
    case value(Element, at: Duration)
    /// The sequence ended normally at `instant`: its iterator returned `nil`.
    case finished(at: Duration)
    /// The sequence threw `failure` at `instant`.
    case failed(Failure, at: Duration)
  }

  /// The events, in the order they happen.
  public var events: [Event]

  /// A timeline of `events`, in the order they happen.
  public init(_ events: [Event]) {
    self.events = events
  }

  /// The values, in order, without their instants.
  public var values: [Element] {
    events.compactMap { event in
      guard case .value(let value, _) = event else { return nil }
      return value
    }
  }

  /// The end of the sequence, when it has one: the last event, when it is `finished` or `failed`.
  public var end: Event? {
    guard let last = events.last, last.isEnd else { return nil }
    return last
  }
}

extension Timeline: ExpressibleByArrayLiteral {
  /// A timeline of the events listed, in the order they happen.
  public init(arrayLiteral events: Event...) {
    self.init(events)
  }
}

extension Timeline: Sendable where Element: Sendable, Failure: Sendable {}
extension Timeline.Event: Sendable where Element: Sendable, Failure: Sendable {}

extension Timeline.Event {
  /// When the event happens: the scheduler's ``TestScheduler/elapsed`` at that moment.
  public var instant: Duration {
    switch self {
    case .value(_, let instant), .finished(let instant), .failed(_, let instant): instant
    }
  }

  /// Whether this is the end of the sequence: `finished` or `failed`.
  public var isEnd: Bool {
    if case .value = self { false } else { true }
  }
}

extension Timeline.Event: CustomStringConvertible {
  /// `"piz" at .milliseconds(500)`, `finished at .seconds(1)`, `failed with Offline() at .zero`: as a
  /// failure message lists it.
  public var description: String {
    switch self {
    case .value(let value, let instant): "\(describe(value)) at \(instant.spelled)"
    case .finished(let instant): "finished at \(instant.spelled)"
    case .failed(let failure, let instant): "failed with \(describe(failure)) at \(instant.spelled)"
    }
  }
}

extension Timeline: CustomStringConvertible {
  /// The events, one after another: `["a" at .zero, finished at .milliseconds(3)]`.
  public var description: String {
    "[\(events.map(\.description).joined(separator: ", "))]"
  }
}

/// Whether two failures are the same: of one type and equal, when that type is `Equatable`; else
/// described alike.
func sameFailure(_ one: any Error, _ two: any Error) -> Bool {
  if let equatable = (one as Any) as? any Equatable {
    return equals(equatable, two)
  }
  if (two as Any) is any Equatable { return false }
  return describe(one) == describe(two)
}

private func equals<T: Equatable>(_ value: T, _ other: Any) -> Bool {
  guard let other = other as? T else { return false }
  return value == other
}

extension Duration {
  /// `.zero`, or the duration as Swift code writes it (``literal``).
  var spelled: String {
    self == .zero ? ".zero" : literal
  }
}
