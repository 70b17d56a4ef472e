/// Fetches a feed, retrying a failure after 1, 2 and 4 seconds (exponential backoff) before it
/// gives up.
///
/// ```swift
/// let model = RetryModel(clock: ContinuousClock()) { try await api.feed() }
/// model.refresh()
/// ```
@MainActor public final class RetryModel<C: Clock<Duration>> {
  /// What the screen shows.
  public enum State: Equatable, Sendable {
    /// Nothing asked yet.
    case idle
    /// Attempt number `n` (1-based) is in flight.
    case attempting(Int)
    /// Waiting before attempt `n`.
    case waiting(before: Int)
    /// The feed arrived.
    case loaded([String])
    /// Every attempt failed.
    case gaveUp
  }

  /// What the screen shows.
  public private(set) var state = State.idle

  /// The waits between attempts: 1 s, 2 s, 4 s.
  public static var backoff: [Duration] { [.seconds(1), .seconds(2), .seconds(4)] }

  private let clock: C
  private let fetch: @Sendable () async throws -> [String]
  private var task: Task<Void, Never>?

  /// A model that waits on `clock` between attempts of `fetch`.
  public init(clock: C, fetch: @escaping @Sendable () async throws -> [String]) {
    self.clock = clock
    self.fetch = fetch
  }

  /// Fetches, retrying failures.
  public func refresh() {
    task?.cancel()
    let (clock, fetch) = (self.clock, self.fetch)
    task = Task { [weak self] in
      for attempt in 1...(Self.backoff.count + 1) {
        self?.state = .attempting(attempt)
        if let feed = try? await fetch() {
          self?.state = .loaded(feed)
          return
        }
        guard attempt <= Self.backoff.count else { break }
        self?.state = .waiting(before: attempt + 1)
        do {
          try await clock.sleep(for: Self.backoff[attempt - 1])
        } catch {
          return
        }
      }
      self?.state = .gaveUp
    }
  }
}
