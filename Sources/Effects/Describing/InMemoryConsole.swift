/// A ``Console`` that keeps the lines printed to it: the in-memory console of a test environment.
///
/// It is a reference type, so copies share their lines: give it to the code under test and read
/// ``lines`` afterwards.
///
/// ```swift
/// let console = InMemoryConsole()
/// var environment = Environment.test()
/// environment.console = console
/// try Interpreter.live(environment: environment).perform([.print("Computed: 15129")])
/// #expect(console.lines == ["Computed: 15129"])
/// ```
///
/// `Environment.test()` installs a fresh one; test support's `environment.printedLines` reads it
/// back without a cast.
public final class InMemoryConsole: Console {
  private let stored = Locked<[String]>([])

  /// Creates an empty console.
  public init() {}

  /// Every line printed, in order.
  public var lines: [String] {
    stored.snapshot
  }

  /// Keeps `line`.
  public func print(_ line: String) {
    stored.withLock { $0.append(line) }
  }

  /// Forgets every line.
  public func clear() {
    stored.withLock { $0.removeAll() }
  }
}
