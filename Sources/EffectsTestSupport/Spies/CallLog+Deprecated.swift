extension CallLog {
  /// Asserts that the log holds exactly `expected`, in order: the old name of
  /// ``assertCalls(_:fileID:filePath:line:column:)``.
  @available(*, deprecated, renamed: "assertCalls(_:fileID:filePath:line:column:)")
  public func assertSequence(
    _ expected: [Entry],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    assertCalls(expected, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
