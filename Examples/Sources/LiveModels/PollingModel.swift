/// Polls a server for the latest value every 5 seconds while started.
///
/// ```swift
/// let model = PollingModel(clock: ContinuousClock()) { try await api.unreadCount() }
/// model.start()
/// ```
@MainActor public final class PollingModel<C: Clock<Duration>> {
  /// The values polled, in order.
  public private(set) var values: [Int] = []

  /// The time between polls.
  public static var interval: Duration { .seconds(5) }

  private let clock: C
  private let poll: @Sendable () async throws -> Int
  private var task: Task<Void, Never>?

  /// A model that polls `poll` on `clock`.
  public init(clock: C, poll: @escaping @Sendable () async throws -> Int) {
    self.clock = clock
    self.poll = poll
  }

  /// Polls now, then every ``interval``; a failed poll is skipped.
  public func start() {
    let (clock, poll) = (self.clock, self.poll)
    task = Task { [weak self] in
      while !Task.isCancelled {
        if let value = try? await poll() { self?.values.append(value) }
        do {
          try await clock.sleep(for: Self.interval)
        } catch {
          return
        }
      }
    }
  }

  /// Stops polling.
  public func stop() {
    task?.cancel()
    task = nil
  }
}
