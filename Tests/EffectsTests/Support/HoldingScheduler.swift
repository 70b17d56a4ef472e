import Effects
import Foundation
import Testing

/// A scheduler that holds every action until the test runs it with ``runHeldWork()``.
///
/// Just enough virtual time for the interpreter's tests: it remembers each delay,
/// runs nothing on its own, and runs held actions in the order they were scheduled.
final class HoldingScheduler: WorkScheduler {
  struct Held: Sendable {
    let id: Int
    let delay: Duration
    let action: @Sendable () -> Void
  }

  private let state = Locked<(nextID: Int, held: [Held])>((0, []))

  let now = Date(timeIntervalSinceReferenceDate: 0)

  /// The delays of the actions still held, in the order they were scheduled.
  var heldDelays: [Duration] {
    state.withLock { $0.held.map(\.delay) }
  }

  /// Runs every action held now (not ones they schedule), in order, and forgets them.
  func runHeldWork() {
    let work = state.withLock { state in
      defer { state.held.removeAll() }
      return state.held
    }
    for held in work { held.action() }
  }

  func schedule(
    after delay: Duration,
    at callSite: CallSite,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledWork {
    let id = state.withLock { state in
      state.nextID += 1
      state.held.append(Held(id: state.nextID, delay: delay, action: action))
      return state.nextID
    }
    return ScheduledWork { [state] in state.withLock { $0.held.removeAll { $0.id == id } } }
  }

  func schedule(
    after delay: Duration,
    every interval: Duration,
    at callSite: CallSite,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledWork {
    Issue.record("HoldingScheduler does not hold repeating work (scheduled at \(callSite))")
    return ScheduledWork {}
  }

  func sleep(for duration: Duration, at callSite: CallSite) async throws {
    Issue.record("HoldingScheduler does not sleep (asked at \(callSite))")
  }
}
