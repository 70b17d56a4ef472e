/// A clock whose sleeps end at once, moving its `now` to their deadline: the placeholder that
/// ``Environment/continuousClock`` answers in `Environment.unimplemented()` after reporting the
/// read, so the test goes on and reports everything it finds, as `InlineScheduler` does for the
/// scheduler. (`Environment.test()` sets the virtual clock of its `TestScheduler` instead.)
final class InlineClock: Clock, Sendable {
  typealias Instant = DurationClock.Instant

  private let current = Locked(Instant(offset: .zero))

  var now: Instant {
    current.snapshot
  }

  var minimumResolution: Duration {
    .zero
  }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try Task.checkCancellation()
    current.withLock { now in now = max(now, deadline) }
  }
}
