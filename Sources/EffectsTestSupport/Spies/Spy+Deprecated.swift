extension Spy {
  /// Records `input` and answers the stub: the old name of `try spy(input)`.
  ///
  /// It was the way to let a stubbed error out of a `Void` spy, when `try spy(input)` could pick a
  /// form that did not throw. `try spy(input)` now always throws the stubbed error.
  @available(
    *,
    deprecated,
    renamed: "callAsFunction(_:fileID:filePath:line:column:)",
    message: "call the spy: try spy(input)"
  )
  public func call(
    _ input: Input,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) throws -> Output {
    try self(input, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

extension Spy {
  /// Asserts that the spy was called exactly `count` times: the old name of
  /// ``assertCalls(count:fileID:filePath:line:column:)``.
  @available(*, deprecated, renamed: "assertCalls(count:fileID:filePath:line:column:)")
  public func assertCalled(
    times count: Int,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    assertCalls(count: count, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that the spy was never called: the old name of
  /// ``assertNoCalls(fileID:filePath:line:column:)``.
  @available(*, deprecated, renamed: "assertNoCalls(fileID:filePath:line:column:)")
  public func assertNotCalled(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    assertNoCalls(fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

extension Spy where Input: Equatable {
  /// Asserts that the spy was called exactly once, with `expected`: now
  /// `assertCalls([expected])`, which it calls.
  @available(*, deprecated, message: "use assertCalls([input])")
  public func assertCalledOnce(
    with expected: Input,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    assertCalls([expected], fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
