import Effects
import Testing

extension TestScheduler {
  /// The scheduler of the virtual-time scope opened by `@Test(.virtualTime)` or
  /// ``withVirtualTime(now:leftoverWork:isolation:fileID:filePath:line:column:_:)``.
  @TaskLocal static var scoped: TestScheduler?

  /// The test's own scheduler, inside a test marked `@Test(.virtualTime)` (or a
  /// ``withVirtualTime(now:leftoverWork:isolation:fileID:filePath:line:column:_:)`` scope): the one
  /// `Environment.current.scheduler` and `clock` are, and the one to advance.
  ///
  /// ```swift
  /// @Test(.virtualTime) func tokenExpiresAfterAnHour() async {
  ///   let session = Session()   // reads Environment.current.clock
  ///   await TestScheduler.current.advance(by: .seconds(3_600))
  ///   #expect(session.isExpired)
  /// }
  /// ```
  ///
  /// Read anywhere else, it reports an issue (at the running test) saying how to open a scope, and
  /// answers a new scheduler, which nothing else uses.
  public static var current: TestScheduler {
    if let scoped { return scoped }
    let message = """
      TestScheduler.current was read outside a virtual-time scope, so there is no test scheduler \
      to answer; here is a new one that nothing else uses. Mark the test @Test(.virtualTime) (or \
      its suite @Suite(.virtualTime)), or wrap its body in withVirtualTime { scheduler in … }.
      """
    if let test = Test.current {
      recordFailure(message, at: FailureLocation(test.sourceLocation))
    } else {
      reportIssue(message, at: CallSite())
    }
    return TestScheduler()
  }
}
