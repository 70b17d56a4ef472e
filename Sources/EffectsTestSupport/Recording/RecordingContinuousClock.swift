import Effects

/// A clock that logs each sleep as `continuousClock.sleep`, `for .seconds(2)` (the time from `now`
/// to the deadline, when the sleep starts), then sleeps on `base` exactly as asked.
///
/// Reads of `now` are not logged: `Clock.sleep(for:)` reads it to compute every deadline, and
/// clock-generic code (`debounce`, `AsyncTimerSequence`) reads it as bookkeeping, so the log would
/// list the algorithms' steps rather than what the code under test asked for.
struct RecordingContinuousClock: CallerIsolatedClock {
  let base: DurationClock
  let log: CallLog

  var now: DurationClock.Instant {
    base.now
  }

  var minimumResolution: Duration {
    base.minimumResolution
  }

  func sleep(until deadline: DurationClock.Instant, tolerance: Duration?) async throws {
    try await sleepOnCallersActor(until: deadline, tolerance: tolerance)
  }

  /// Logs the sleep, then sleeps on `base`, on the caller's actor.
  nonisolated(nonsending) func sleepOnCallersActor(
    until deadline: DurationClock.Instant,
    tolerance: Duration?
  )
    async throws
  {
    log.record("continuousClock.sleep", "for \(base.now.duration(to: deadline).literal)")
    try await base.sleep(until: deadline, tolerance: tolerance)
  }
}
