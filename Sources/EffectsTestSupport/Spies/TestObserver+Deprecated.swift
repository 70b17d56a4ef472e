extension TestObserver {
  /// Asserts that exactly `count` values were received: the old name of
  /// ``assertValues(count:fileID:filePath:line:column:)``.
  @available(*, deprecated, renamed: "assertValues(count:fileID:filePath:line:column:)")
  public func assertValueCount(
    _ count: Int,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    assertValues(count: count, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that no value was received: the old name of
  /// ``assertNoValues(fileID:filePath:line:column:)``.
  @available(*, deprecated, renamed: "assertNoValues(fileID:filePath:line:column:)")
  public func assertDidNotEmitValue(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    assertNoValues(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that at least one value was received.
  ///
  /// The vocabulary has no "at least one": assert the values themselves, or their number.
  @available(*, deprecated, message: "use assertValues(count:) or check values.isEmpty")
  public func assertDidEmitValue(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard values.isEmpty else { return }
    reportIssue(
      "\(observerName) received no values, expected at least one\(outcome).",
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}
