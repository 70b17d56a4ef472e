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
