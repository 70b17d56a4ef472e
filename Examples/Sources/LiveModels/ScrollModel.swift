import AsyncAlgorithms

/// Reports the row a list is scrolled to, at most once every 100 ms (swift-async-algorithms'
/// `throttle`, keeping the latest row).
///
/// ```swift
/// let model = ScrollModel(clock: ContinuousClock())
/// model.start()
/// model.scrolled(to: 42)
/// ```
@MainActor public final class ScrollModel<C: Clock<Duration>> {
  /// The rows reported, in order.
  public private(set) var reported: [Int] = []

  private let clock: C
  private let rows: AsyncStream<Int>
  private let input: AsyncStream<Int>.Continuation
  private var task: Task<Void, Never>?

  /// A model that throttles on `clock`.
  public init(clock: C) {
    self.clock = clock
    (rows, input) = AsyncStream.makeStream()
  }

  /// Starts reporting.
  public func start() {
    // `_throttle` is swift-async-algorithms 1.1's spelling of `throttle` (still underscored there).
    let rows = rows._throttle(for: .milliseconds(100), clock: clock, latest: true)
    task = Task { [weak self] in
      for await row in rows {
        self?.reported.append(row)
      }
    }
  }

  /// The list scrolled to `row`.
  public func scrolled(to row: Int) {
    input.yield(row)
  }

  /// Stops reporting.
  public func stop() {
    input.finish()
    task?.cancel()
  }
}
