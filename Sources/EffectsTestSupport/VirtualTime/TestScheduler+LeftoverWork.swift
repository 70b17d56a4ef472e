extension TestScheduler {
  /// What the end of a virtual-time scope does with work its test left behind: callbacks still
  /// scheduled, tasks still sleeping on the scheduler, and tasks of the scope still suspended on
  /// anything else (a stream that never yields, a continuation never resumed).
  ///
  /// ```swift
  /// // A model that listens for the app's lifetime: the test says it leaves the listener behind.
  /// await scheduler.withVirtualTime(leftoverWork: .expected) {
  ///   let model = NotificationsModel(environment: .test(scheduler: scheduler))
  ///   model.startListening()
  ///   await scheduler.advance(by: .seconds(1))
  ///   #expect(model.unread == 0)
  /// }
  /// ```
  public enum LeftoverWork: Sendable, Hashable {
    /// Each piece of leftover work fails the test, at the line that scheduled it (for a task,
    /// the line that started it: on Linux, where the stack can be read; elsewhere the scope's),
    /// then is cancelled — sleepers get `CancellationError`, tasks are cancelled — so nothing
    /// outlives the test. The default: a test accounts for all it started.
    case reported
    /// The test means to leave work behind: it stays as it is, neither reported nor cancelled.
    /// Work left on the scheduler runs at a later advance; tasks left suspended go on outside
    /// virtual time when something resumes them.
    case expected
  }
}
