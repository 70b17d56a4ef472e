import AsyncAlgorithms

/// A stopwatch that counts whole seconds with swift-async-algorithms' `AsyncTimerSequence`.
///
/// ```swift
/// let stopwatch = StopwatchModel(clock: ContinuousClock())
/// stopwatch.start()
/// ```
@MainActor public final class StopwatchModel<C: Clock<Duration>> {
  /// Whole seconds counted since ``start()``.
  public private(set) var seconds = 0
  /// Whether it is counting.
  public private(set) var isRunning = false

  private let clock: C
  private var task: Task<Void, Never>?

  /// A stopwatch ticking on `clock`.
  public init(clock: C) {
    self.clock = clock
  }

  /// Starts counting from zero.
  public func start() {
    seconds = 0
    isRunning = true
    let ticks = AsyncTimerSequence(interval: .seconds(1), clock: clock)
    task = Task { [weak self] in
      for await _ in ticks {
        self?.seconds += 1
      }
    }
  }

  /// Stops counting.
  public func stop() {
    isRunning = false
    task?.cancel()
    task = nil
  }
}
