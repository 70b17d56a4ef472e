package import EffectsTestSupport
package import Testing

/// Whether an issue about a co-effect read is placed at the line that read it: test support finds
/// it from the stack on Linux; elsewhere it falls back to where the environment was made, or to
/// the test.
package let readSitesAreFound: Bool = {
  #if os(Linux)
  true
  #else
  false
  #endif
}()

/// Expects `issues`, reported about co-effect reads, to be exactly `expected`: the same texts, in
/// the same files, at the lines that read. Where read sites are not found (see
/// ``readSitesAreFound``) an issue falls back to another line, so there only its line is not
/// compared.
package func expectReadIssues(
  _ issues: [CapturedIssue],
  _ expected: [CapturedIssue],
  sourceLocation: SourceLocation = #_sourceLocation
) {
  var expected = expected
  if !readSitesAreFound && issues.count == expected.count {
    for index in expected.indices { expected[index].line = issues[index].line }
  }
  #expect(issues == expected, sourceLocation: sourceLocation)
}
