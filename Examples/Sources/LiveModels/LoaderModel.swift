/// Loads a profile, giving up after a timeout (``withTimeout(_:clock:operation:)``).
///
/// ```swift
/// let model = LoaderModel(clock: ContinuousClock(), timeout: .seconds(5)) { try await api.name() }
/// model.load()
/// ```
@MainActor public final class LoaderModel<C: Clock<Duration>> {
  /// What the screen shows.
  public enum State: Equatable, Sendable {
    /// Nothing asked yet.
    case idle
    /// Waiting for the server.
    case loading
    /// The server answered.
    case loaded(String)
    /// The server did not answer in time.
    case timedOut
    /// The server failed.
    case failed
  }

  /// What the screen shows.
  public private(set) var state = State.idle

  private let clock: C
  private let timeout: Duration
  private let fetch: @Sendable () async throws -> String
  private var task: Task<Void, Never>?

  /// A model that waits `timeout` on `clock` for `fetch`.
  public init(clock: C, timeout: Duration, fetch: @escaping @Sendable () async throws -> String) {
    self.clock = clock
    self.timeout = timeout
    self.fetch = fetch
  }

  /// Loads, replacing a load in flight.
  public func load() {
    task?.cancel()
    state = .loading
    let (clock, timeout, fetch) = (self.clock, self.timeout, self.fetch)
    task = Task { [weak self] in
      do {
        let name = try await withTimeout(timeout, clock: clock, operation: fetch)
        self?.state = .loaded(name)
      } catch is TimeoutError {
        self?.state = .timedOut
      } catch {
        if !Task.isCancelled { self?.state = .failed }
      }
    }
  }
}
