/// Any `Clock` measured in `Duration`, behind one concrete type: the type of
/// ``Environment/continuousClock``.
///
/// Code that sleeps on a clock — `Task.sleep(for:clock:)`, `clock.sleep(for:)`, and
/// clock-generic code such as swift-async-algorithms' `debounce(for:clock:)` and
/// `AsyncTimerSequence` — takes a generic `C: Clock`. An existential `any Clock<Duration>` is
/// accepted where the generic parameter appears only in the arguments (`Task.sleep(for:clock:)`),
/// but not where it appears in the result (`debounce` returns an `AsyncDebounceSequence<Self, C>`):
/// Swift cannot open the existential there, and the call does not compile. A `DurationClock` is a
/// concrete type, so every one of them accepts it:
///
/// ```swift
/// @MainActor final class SearchModel {
///   private(set) var results: [String] = []
///   private let queries = AsyncStream.makeStream(of: String.self)
///   private let environment: Environment
///
///   init(environment: Environment = .current) {
///     self.environment = environment
///   }
///
///   func start() async {
///     for await query in queries.stream.debounce(for: .milliseconds(300), clock: environment.continuousClock) {
///       results = await search(query)
///     }
///   }
/// }
/// ```
///
/// In the app, `environment.continuousClock` wraps `ContinuousClock()`; in `Environment.test()`
/// and in a virtual-time scope it wraps the `TestScheduler`'s virtual clock, so the test moves
/// the model's time with `advance(by:)`.
///
/// Wrap a clock of your own with ``init(_:)``. The wrapper adds no behaviour: `now`, `sleep` and
/// `minimumResolution` are the wrapped clock's, and durations between its instants are exact. An
/// ``Instant`` is an offset from an origin the wrapper took when it was made, so instants of one
/// `DurationClock` (and of its copies) compare and subtract; instants of two separately made
/// wrappers do not belong together. A clock whose instants are already ``Instant``s keeps its own
/// origin: wrapping test support's virtual clock gives instants that are offsets from its
/// scheduler's start, whenever it is wrapped.
public struct DurationClock: Clock {
  /// An instant of a ``DurationClock``: an exact offset from the origin of the clock that made it.
  /// (Test support's virtual clock speaks the same instants, offsets from its scheduler's start.)
  public struct Instant: InstantProtocol {
    /// The offset from the clock's origin.
    package var offset: Duration

    /// The instant `offset` after the clock's origin.
    package init(offset: Duration) {
      self.offset = offset
    }

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The duration from this instant to `other`.
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Earlier instants are smaller.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private let base: any WrappedClock

  /// `clock`, as a `DurationClock`; wrapping a `DurationClock` gives it back unchanged.
  ///
  /// ```swift
  /// environment.continuousClock = DurationClock(SuspendingClock())
  /// ```
  public init<C: Clock>(_ clock: C) where C.Duration == Duration {
    if let clock = clock as? DurationClock {
      self = clock
    } else if let clock = clock as? any CallerIsolatedClock {
      base = CallerIsolated(clock: clock)
    } else if let origin = Instant(offset: .zero) as? C.Instant {
      // The clock speaks these instants already (test support's virtual clock): keep its origin.
      base = Wrapped(clock: clock, origin: origin)
    } else {
      base = Wrapped(clock: clock, origin: clock.now)
    }
  }

  /// The live value of ``Environment/continuousClock``: `ContinuousClock()`, which keeps counting
  /// while the device sleeps (the clock a debounce window or a timeout is measured on).
  package static let continuous = DurationClock(ContinuousClock())

  /// The wrapped clock's current instant.
  public var now: Instant {
    Instant(offset: base.offset)
  }

  /// The wrapped clock's minimum resolution.
  public var minimumResolution: Duration {
    base.minimumResolution
  }

  /// Suspends until the wrapped clock reaches `deadline`, exactly as the wrapped clock does: a
  /// passed deadline ends a `ContinuousClock` sleep at once, and a virtual clock's at the test's
  /// next `advance`; throws `CancellationError` when the task is cancelled.
  ///
  /// It runs on the caller's actor when called on a `DurationClock` itself; code generic over
  /// `Clock` (`Task.sleep(for:clock:)`, a `debounce`) calls it as a plain nonisolated function.
  nonisolated(nonsending) public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try await base.sleep(until: deadline.offset, tolerance: tolerance)
  }

  /// Suspends for `duration` of the wrapped clock's time, on the caller's actor: a `@MainActor`
  /// model that sleeps stays on the main actor, as with the scheduler's `sleep(for:)`.
  ///
  /// ```swift
  /// try await environment.continuousClock.sleep(for: .milliseconds(300))  // a debounce window
  /// ```
  ///
  /// The same as `Clock`'s `sleep(for:tolerance:)` (the deadline is `now` plus `duration`), which
  /// code generic over `Clock` still calls; throws `CancellationError` when the task is cancelled.
  nonisolated(nonsending) public func sleep(for duration: Duration, tolerance: Duration? = nil) async throws {
    try await sleep(until: now.advanced(by: duration), tolerance: tolerance)
  }
}

/// A clock that can sleep on its caller's actor, as test support's virtual clock does: a
/// ``DurationClock`` wrapping one keeps its caller's actor through the whole sleep.
package protocol CallerIsolatedClock: Clock where Duration == Swift.Duration, Instant == DurationClock.Instant {
  /// Suspends until `deadline`, on the caller's actor.
  nonisolated(nonsending) func sleepOnCallersActor(until deadline: Instant, tolerance: Duration?) async throws
}

/// A clock measured in `Duration`, with its instants spoken as offsets from an origin.
private protocol WrappedClock: Sendable {
  var offset: Duration { get }
  var minimumResolution: Duration { get }
  nonisolated(nonsending) func sleep(until offset: Duration, tolerance: Duration?) async throws
}

/// `clock`, with the instant it was wrapped at as the origin of its offsets.
private struct Wrapped<C: Clock>: WrappedClock where C.Duration == Duration {
  let clock: C
  let origin: C.Instant

  var offset: Duration {
    origin.duration(to: clock.now)
  }

  var minimumResolution: Duration {
    clock.minimumResolution
  }

  nonisolated(nonsending) func sleep(until offset: Duration, tolerance: Duration?) async throws {
    try await clock.sleep(until: origin.advanced(by: offset), tolerance: tolerance)
  }
}

/// A clock that sleeps on its caller's actor, whose instants are already offsets.
private struct CallerIsolated: WrappedClock {
  let clock: any CallerIsolatedClock

  var offset: Duration {
    clock.now.offset
  }

  var minimumResolution: Duration {
    clock.minimumResolution
  }

  nonisolated(nonsending) func sleep(until offset: Duration, tolerance: Duration?) async throws {
    try await clock.sleepOnCallersActor(until: DurationClock.Instant(offset: offset), tolerance: tolerance)
  }
}
