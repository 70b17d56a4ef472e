import Effects

extension Spy {
  /// Answers every call with `output`.
  ///
  /// ```swift
  /// store.loadSpy.stub(returning: "abc")
  /// ```
  public func stub(returning output: Output) {
    replaceStub(response: { _ in output })
  }

  /// Answers every call by throwing `error`.
  ///
  /// ```swift
  /// api.fetchSpy.stub(throwing: URLError(.notConnectedToInternet))
  /// ```
  public func stub(throwing error: any Error) {
    replaceStub(response: { _ in throw error })
  }

  /// Answers every call with what `body` returns (or throws) for its input.
  ///
  /// ```swift
  /// api.fetchUserSpy.stub { id in User(id: id, name: "Blob") }
  /// ```
  ///
  /// `body` runs outside the spy's lock, so it may call the spy again.
  public func stub(_ body: @escaping @Sendable (Input) throws -> Output) {
    replaceStub(response: body)
  }

  /// Answers the next calls with `outputs`, one per call, in order — and insists that they are
  /// used up exactly.
  ///
  /// ```swift
  /// api.fetchSpy.stub(script: [nil, "abc"])  // the first call misses, the retry succeeds
  /// ```
  ///
  /// A call after the last output is reported at that call (and throws, unless the output is
  /// `Void`). Outputs never used are reported by ``assertScriptConsumed(fileID:filePath:line:column:)``,
  /// when another stub replaces the script, and at the latest when the spy is deinitialized —
  /// at this line, where the script was set.
  public func stub(
    script outputs: [Output],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    stub(
      script: outputs.map { Result<Output, any Error>.success($0) },
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Answers the next calls with `results` — an output or an error each — one per call, in order,
  /// used up exactly (see `stub(script:)`).
  ///
  /// ```swift
  /// api.fetchSpy.stub(script: [.failure(URLError(.timedOut)), .success(profile)])  // fails, then recovers
  /// ```
  public func stub(
    script results: [Result<Output, any Error>],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let setAt = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    replaceStub(script: Script(results, setAt: setAt))
  }

  /// Asserts that the script set by `stub(script:)` was used up: every output answered a call.
  ///
  /// ```swift
  /// api.fetchSpy.stub(script: [nil, "abc"])
  /// await model.loadWithRetry()
  /// api.fetchSpy.assertScriptConsumed()
  /// ```
  ///
  /// Once reported, the leftover is not reported again when the spy is deinitialized.
  public func assertScriptConsumed(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let (leftover, hasScript) = state.withLock { state in
      (state.takeUnreportedScriptLeftover(), state.script != nil)
    }
    if !hasScript {
      reportIssue(
        """
        \(subject) has no script, so assertScriptConsumed() has nothing to check. Stub it with stub(script:), or \
        remove the assertion.
        """,
        kind: .misuse,
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
      )
    } else if let leftover {
      reportIssue(
        "\(subject) has \(leftover.message)",
        kind: .unusedStub,
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
      )
    }
  }

  private func replaceStub(response: Response? = nil, script: Script? = nil) {
    let (leftover, replaced) = state.withLock { $0.replaceStub(response: response, script: script) }
    withExtendedLifetime(replaced) {}
    if let leftover {
      reportIssue("\(subject) was stubbed again with \(leftover.message)", kind: .unusedStub, at: leftover.setAt)
    }
  }
}
