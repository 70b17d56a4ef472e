import Effects

extension TestScheduler {
  /// The scheduler of the virtual-time scope open on this task: `@Test(.virtualTime)`,
  /// ``withVirtualTime(now:leftoverWork:isolation:fileID:filePath:line:column:_:)`` or
  /// ``withVirtualTime(leftoverWork:isolation:fileID:filePath:line:column:_:)``.
  @TaskLocal static var scoped: TestScheduler?

  /// The test's own scheduler, inside a test marked `@Test(.virtualTime)` (or a
  /// ``withVirtualTime(now:leftoverWork:isolation:fileID:filePath:line:column:_:)`` or
  /// `scheduler.withVirtualTime { … }` scope): the one `Environment.current.scheduler` and `clock`
  /// are, and the one to advance.
  ///
  /// ```swift
  /// @Test(.virtualTime) func tokenExpiresAfterAnHour() async {
  ///   let session = Session()   // reads Environment.current.clock
  ///   await TestScheduler.current.advance(by: .seconds(3_600))
  ///   #expect(session.isExpired)
  /// }
  /// ```
  ///
  /// Read anywhere else, it reports an issue saying how to open a scope, and answers a new
  /// scheduler, which nothing else uses. The issue is placed at the line that read it, where the
  /// stack says (else at the Swift Testing test, or on the XCTest case): in a test of either
  /// framework, or with no test on the task (a `Thread`, a Dispatch callback, a detached task) an
  /// issue of SwiftPM's Swift Testing run, which fails it. A detached task started inside a scope
  /// is run by the scope but does not carry it (it inherits no task-local value): the issue says so.
  public static var current: TestScheduler {
    if let scoped { return scoped }
    let detached = TestHost.current.virtualTimeScope && !carriesAScope
    reportRead(detached ? inADetachedTask : outsideAScope, kind: .wrongScheduler, fallback: nil)
    return TestScheduler()
  }

  /// Whether the current task carries a virtual-time scope's executor as a task-local (every task
  /// started in a scope does; a detached one does not).
  private static var carriesAScope: Bool {
    guard #available(EffectsVirtualTime , *) else { return false }
    return VirtualExecutor.scope != nil
  }

  private static let outsideAScope = """
    TestScheduler.current was read outside a virtual-time scope, so there is no test scheduler \
    to answer; here is a new one that nothing else uses. Mark the test @Test(.virtualTime) (or \
    its suite @Suite(.virtualTime)), or wrap its body in withVirtualTime { scheduler in … }.
    """

  private static let inADetachedTask = """
    TestScheduler.current was read in a task that a virtual-time scope runs but that does not carry \
    the scope (Task.detached inherits no task-local value), so there is no test scheduler to answer; \
    here is a new one that nothing else uses, and nothing advances it. Read TestScheduler.current \
    before detaching and pass the scheduler in, or start the task with Task { … }, which carries the \
    scope.
    """
}
