public import Effects

extension Environment {
  /// The lines `.print` effects wrote to this environment's `console`, in order,
  /// when it is an `InMemoryConsole` (as in `Environment.test()`).
  ///
  /// ```swift
  /// let environment = Environment.test()
  /// try Interpreter.live(environment: environment).perform([.print("Saved")])
  /// #expect(environment.printedLines == ["Saved"])
  /// ```
  ///
  /// When the console keeps nothing (the live `StandardOutput`, a console of your own), it reports
  /// an issue naming the console and answers no lines.
  public var printedLines: [String] {
    let console = console
    guard let console = console as? InMemoryConsole else {
      reportRead(Self.notInMemory("console", console, "InMemoryConsole"), fallback: nil)
      return []
    }
    return console.lines
  }

  /// The events `.track` effects logged to this environment's `events`, in order,
  /// when it is an `InMemoryEventLog` (as in `Environment.test()`).
  ///
  /// ```swift
  /// let environment = Environment.test()
  /// try Interpreter.live(environment: environment).perform([.track(event: "saved", properties: ["id": "7"])])
  /// #expect(environment.trackedEvents == [.init(name: "saved", properties: ["id": "7"])])
  /// ```
  ///
  /// When the event sink keeps nothing, it reports an issue naming it and answers no events.
  public var trackedEvents: [InMemoryEventLog.Event] {
    let events = events
    guard let log = events as? InMemoryEventLog else {
      reportRead(Self.notInMemory("events", events, "InMemoryEventLog"), fallback: nil)
      return []
    }
    return log.events
  }

  private static func notInMemory(_ field: String, _ value: Any, _ double: String) -> String {
    """
    environment.\(field) (\(type(of: value))) keeps nothing to read back. Read back from an environment made \
    by Environment.test(), or set environment.\(field) = \(double)() first.
    """
  }
}
