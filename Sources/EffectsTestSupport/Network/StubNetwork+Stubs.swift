public import Effects

extension StubNetwork {
  /// Answers requests that match `request` with `response`, after `latency` on the virtual clock.
  ///
  /// ```swift
  /// network.stub(.get("https://api.example.com/me"), .json(#"{"name":"Ada"}"#))
  /// network.stub(.get("https://api.example.com/missing"), .status(404))
  /// network.stub(.post("https://api.example.com/upload", body: photo), .ok(), after: .seconds(3))
  /// ```
  ///
  /// A request matches with the same method, URL and body, carrying every header `request`
  /// names. Several stubs for one request answer in the order they were made, and the last one
  /// keeps answering.
  ///
  /// With a `latency`, the request sleeps that long on the test's ``TestScheduler`` before it is
  /// answered, so a slow response is exact in virtual time: `await scheduler.advance(by:)` to just
  /// before it, and the code under test is still waiting; to it, and the response arrives.
  ///
  /// A stub no request used fails the test at this line when the virtual-time scope ends (or, with
  /// no scope, when the network is released).
  ///
  /// - Parameters:
  ///   - request: The request to answer.
  ///   - response: The answer, whatever its status (a 500 is a response, not an error). A 200 with
  ///     no body by default.
  ///   - latency: How long the answer takes, in virtual time.
  ///   - fileID: The file that made the stub: a stub never used is reported at this call.
  ///   - filePath: The file's full path, which XCTest needs.
  ///   - line: The line that made the stub.
  ///   - column: The column of that call.
  public func stub(
    _ request: NetworkRequest,
    _ response: NetworkResponse = .ok(),
    after latency: Duration = .zero,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    add(request, .response(response), latency, CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Fails requests that match `request` with `error`, after `latency` on the virtual clock: the
  /// network is down, the host refused, the request timed out.
  ///
  /// ```swift
  /// network.stub(.get("https://api.example.com/me"), throwing: URLError(.notConnectedToInternet))
  /// network.stub(.get("https://api.example.com/me"), throwing: URLError(.timedOut), after: .seconds(60))
  /// ```
  ///
  /// Throw the errors the live client throws (`URLError`), so the code under test handles the
  /// failures it will meet.
  public func stub(
    _ request: NetworkRequest,
    throwing error: any Error,
    after latency: Duration = .zero,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    add(request, .failure(error), latency, CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  func add(
    _ request: NetworkRequest,
    _ answer: Answer,
    _ latency: Duration,
    _ callSite: CallSite,
    tape: (exchange: NetworkTape.Exchange, place: String)? = nil
  ) {
    var latency = latency
    if latency < .zero {
      reportIssue(
        "StubNetwork.stub got a negative latency, \(latency.literal), and counts it as zero. Pass .zero or more.",
        kind: .invalidArgument,
        at: callSite
      )
      latency = .zero
    }
    let scheduler = state.withLock { state in
      state.stubs.append(Stub(request: request, answer: answer, latency: latency, callSite: callSite, tape: tape))
      return state.scheduler
    }
    // The test's scope (`@Test(.virtualTime)`, `withVirtualTime { … }`), else a scope open on the
    // network's own scheduler (`scheduler.withVirtualTime { … }`).
    if let scope = TestScheduler.scoped ?? scheduler.flatMap({ $0.hasOpenScope ? $0 : nil }) {
      checkUnusedStubs(atEndOf: scope)
    }
  }

  /// Reports the stubs no request used when the scope of `scheduler` ends: registered once per
  /// scope, however many stubs it makes, and again by the next scope.
  func checkUnusedStubs(atEndOf scheduler: TestScheduler) {
    let id = ObjectIdentifier(scheduler)
    // A scope nested in one that already checks this network (a scope on another scheduler,
    // inside the test's) checks only the stubs made from its start: those made for the test are
    // not unused because the inner scope did not ask for them, and the outer scope checks them.
    let registered = state.withLock { state -> Bool in
      guard state.checkedBy[id] == nil else { return false }
      state.checkedBy[id] = state.checkedBy.isEmpty ? 0 : state.stubs.count
      return true
    }
    guard registered else { return }
    scheduler.atScopeEnd { [weak self] in
      guard let self else { return }
      let first = state.withLock { $0.checkedBy.removeValue(forKey: id) } ?? 0
      reportUnusedStubs(from: first)
    }
  }
}
