import Effects

extension TestScheduler {
  /// The scheduler of the virtual-time scope open on this task: `@Test(.virtualTime)`,
  /// ``withVirtualTime(now:leftoverWork:isolation:fileID:filePath:line:column:_:)`` or
  /// ``withVirtualTime(leftoverWork:isolation:fileID:filePath:line:column:_:)``.
  @TaskLocal static var scoped: TestScheduler?

  /// Whether the current task carries a virtual-time scope's executor as a task-local (every task
  /// started in a scope does; a detached one does not).
  static var carriesAScope: Bool {
    guard #available(EffectsVirtualTime , *) else { return false }
    return VirtualExecutor.scope != nil
  }

  static let outsideAScope = """
    TestScheduler.current was read outside a virtual-time scope, so there is no test scheduler \
    to answer; here is a new one that nothing else uses. Mark the test @Test(.virtualTime) (or \
    its suite @Suite(.virtualTime)), or wrap its body in withVirtualTime { scheduler in … }.
    """

  static let inADetachedTask = """
    TestScheduler.current was read in a task that a virtual-time scope runs but that does not carry \
    the scope (Task.detached inherits no task-local value), so there is no test scheduler to answer; \
    here is a new one that nothing else uses, and nothing advances it. Read TestScheduler.current \
    before detaching and pass the scheduler in, or start the task with Task { … }, which carries the \
    scope.
    """
}
