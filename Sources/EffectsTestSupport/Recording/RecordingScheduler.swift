import Effects
import Foundation

/// A scheduler that logs each piece of work scheduled (`scheduler.schedule`) and each sleep (`scheduler.sleep`), then hands them to `base` exactly as
/// given: the same arguments, the same result, and — for `sleep` — the caller's isolation
/// (`nonisolated(nonsending)`, as the requirement is), so a `@MainActor` sleep through the recorder
/// never hops to the global executor and out of virtual time's order.
struct RecordingScheduler: WorkScheduler {
  let base: any WorkScheduler
  let log: CallLog

  func schedule(
    after delay: Duration,
    at callSite: CallSite,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledWork {
    log.record("scheduler.schedule", "after \(delay.literal)")
    return base.schedule(after: delay, at: callSite, action)
  }

  func schedule(
    after delay: Duration,
    every interval: Duration,
    at callSite: CallSite,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledWork {
    log.record("scheduler.schedule", "after \(delay.literal) every \(interval.literal)")
    return base.schedule(after: delay, every: interval, at: callSite, action)
  }

  nonisolated(nonsending) func sleep(for duration: Duration, at callSite: CallSite) async throws {
    log.record("scheduler.sleep", "for \(duration.literal)")
    try await base.sleep(for: duration, at: callSite)
  }
}
