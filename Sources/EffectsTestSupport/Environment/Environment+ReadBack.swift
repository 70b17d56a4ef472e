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
      reportRead(Self.notInMemory("console", console, "InMemoryConsole"), kind: .missingTestValue, fallback: nil)
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
      reportRead(Self.notInMemory("events", events, "InMemoryEventLog"), kind: .missingTestValue, fallback: nil)
      return []
    }
    return log.events
  }

  /// The ``StubNetwork`` this environment's `network` is (as in `Environment.test()`): stub the
  /// requests the code under test will send, and assert the ones it sent, on the network it reads.
  ///
  /// ```swift
  /// @Test(.virtualTime) func theProfileLoads() async {
  ///   let network = Environment.current.stubNetwork
  ///   network.stub(.get("https://api.example.com/me"), .json(#"{"name":"Ada"}"#))
  ///   let model = ProfileModel()            // reads Environment.current.network
  ///   await model.load()
  ///   #expect(model.name == "Ada")
  ///   network.assertRequests([.get("https://api.example.com/me")])
  /// }
  /// ```
  ///
  /// A network wrapped by `recording(into:)` answers the stub network inside it. When the network
  /// is not a `StubNetwork` (the live one, a double of your own), it reports an issue naming it and
  /// answers a new `StubNetwork` that nothing sends through.
  public var stubNetwork: StubNetwork {
    let network = network
    guard let stubs = RecordingNetwork.stubs(in: network) else {
      reportRead(
        """
        environment.network (\(type(of: network))) is not a StubNetwork, so it has no stubs to set or requests \
        to assert. Read it from an environment made by Environment.test(), or set environment.network = \
        StubNetwork() first.
        """,
        kind: .missingTestValue,
        fallback: nil
      )
      return StubNetwork(scheduler: nil, at: nil)
    }
    return stubs
  }

  private static func notInMemory(_ field: String, _ value: Any, _ double: String) -> String {
    """
    environment.\(field) (\(type(of: value))) keeps nothing to read back. Read back from an environment made \
    by Environment.test(), or set environment.\(field) = \(double)() first.
    """
  }
}
