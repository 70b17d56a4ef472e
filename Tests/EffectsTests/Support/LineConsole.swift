import Effects

/// A ``Console`` that keeps the lines written to it.
final class LineConsole: Console {
  private let stored = Locked<[String]>([])

  var lines: [String] {
    stored.snapshot
  }

  func write(_ line: String) {
    stored.withLock { $0.append(line) }
  }
}
