import Effects

/// A ``Console`` that keeps the lines printed to it.
final class LineConsole: Console {
  private let stored = Locked<[String]>([])

  var lines: [String] {
    stored.snapshot
  }

  func print(_ line: String) {
    stored.withLock { $0.append(line) }
  }
}
