/// Thrown by ``withTimeout(_:clock:operation:)`` when the operation does not finish in time.
public struct TimeoutError: Error, Equatable {
  /// The time the operation had.
  public var timeout: Duration

  /// A timeout after `timeout`.
  public init(timeout: Duration) {
    self.timeout = timeout
  }
}

/// Runs `operation`, or throws ``TimeoutError`` once `timeout` has passed on `clock` — written the
/// way libraries write it: generic over the clock, a plain `nonisolated` async function racing the
/// operation against a sleep in a task group. The loser is cancelled.
///
/// ```swift
/// let profile = try await withTimeout(.seconds(5), clock: clock) { try await api.profile() }
/// ```
public func withTimeout<C: Clock<Duration>, T: Sendable>(
  _ timeout: Duration,
  clock: C,
  operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T.self) { group in
    group.addTask { try await operation() }
    group.addTask {
      try await clock.sleep(for: timeout)
      throw TimeoutError(timeout: timeout)
    }
    defer { group.cancelAll() }
    guard let first = try await group.next() else { throw CancellationError() }
    return first
  }
}
