import Effects
public import Foundation
public import Testing

/// A Swift Testing trait that runs each test in its own virtual-time scope, on a fresh
/// ``TestScheduler`` that is also `Environment.current`'s `scheduler` and `clock`, and whose
/// virtual clock is its `continuousClock`.
///
/// ```swift
/// @MainActor @Test(.virtualTime)
/// func searchesOnceTheUserStopsTyping() async {
///   let scheduler = TestScheduler.current   // the test's own scheduler
///   let model = SearchModel()               // schedules through Environment.current.scheduler
///   model.type("sw")
///   await scheduler.advance(by: .milliseconds(300))
///   #expect(model.searches == ["sw"])
/// }
/// ```
///
/// The test needs no wrapper closure, and the scope's end check runs: work the test left
/// scheduled, tasks still sleeping, and tasks still suspended on anything else are reported and
/// cancelled (see ``TestScheduler/LeftoverWork``). On a suite, every test — and every argument of
/// a parameterized test — gets its own scheduler and scope.
///
/// Alone, it gives the test an `Environment.test()` on its scheduler: nothing the test reads is
/// live. With an `.environment(…)` trait, in any order, the test gets that environment, with its
/// `TestScheduler` replaced by the scope's, so the code under test and the test advance the same
/// time.
public struct VirtualTimeTrait: TestTrait, SuiteTrait, TestScoping {
  private let now: Date
  private let leftoverWork: TestScheduler.LeftoverWork
  private let exploration: Exploration?

  init(now: Date, leftoverWork: TestScheduler.LeftoverWork, exploration: Exploration? = nil) {
    self.now = now
    self.leftoverWork = leftoverWork
    self.exploration = exploration
  }

  /// Applied to each test of a suite, not once around the whole suite.
  public var isRecursive: Bool { true }

  /// Runs `function` in a new virtual-time scope, once per test case.
  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    // A suite gets no scope of its own: each of its tests gets one.
    guard testCase != nil else {
      try await function()
      return
    }
    guard let exploration else {
      try await TestScheduler(now: now).withTestScope(
        at: FailureLocation(test.sourceLocation),
        origin: "@Test(.virtualTime)",
        leftoverWork: leftoverWork
      ) { _ in try await function() }
      return
    }
    // Each run is the test afresh: a new scheduler, and the environment its traits make.
    let site = FailureLocation(test.sourceLocation)
    let result = await exploration.run(at: site) { schedule -> Result<Void, any Error> in
      do {
        try await EnvironmentTrait.withFreshEnvironment(of: test) {
          try await TestScheduler(now: now).withTestScope(
            at: site,
            origin: "@Test(.virtualTime)",
            leftoverWork: leftoverWork,
            schedule: schedule
          ) { _ in try await function() }
        }
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    try result.get()
  }
}

extension Trait where Self == VirtualTimeTrait {
  /// Runs each test in its own virtual-time scope, on a fresh ``TestScheduler`` (reach it with
  /// ``TestScheduler/current``) that is also `Environment.current`'s `scheduler` and `clock`, and
  /// whose virtual clock is its `continuousClock`.
  ///
  /// ```swift
  /// @Test(.virtualTime) func retriesAfterTwoSeconds() async { … }
  /// ```
  public static var virtualTime: Self {
    VirtualTimeTrait(now: Date(timeIntervalSinceReferenceDate: 0), leftoverWork: .reported)
  }

  /// Runs each test in its own virtual-time scope, on a fresh ``TestScheduler`` starting at `now`.
  ///
  /// ```swift
  /// // A listener that lives as long as the app: the tests leave it running on purpose.
  /// @Suite(.virtualTime(leftoverWork: .expected)) struct NotificationTests { … }
  /// ```
  public static func virtualTime(
    now: Date = Date(timeIntervalSinceReferenceDate: 0),
    leftoverWork: TestScheduler.LeftoverWork = .reported
  ) -> Self {
    VirtualTimeTrait(now: now, leftoverWork: leftoverWork)
  }

  /// Runs each test again and again in its own virtual-time scope, each run in an order of its
  /// jobs that `exploration` chooses, until one fails: its report gives the schedule, and the line
  /// that replays it (see ``Exploration``).
  ///
  /// ```swift
  /// @Test(.virtualTime(exploring: .pct()))
  /// func refreshesTheTokenOnce() async {
  ///   let session = Session()
  ///   async let first = session.validToken()
  ///   async let second = session.validToken()
  ///   _ = await (first, second)
  ///   #expect(session.refreshes == 1)
  /// }
  /// ```
  ///
  /// Each run makes the test's world afresh: a new ``TestScheduler`` starting at `now`, and the
  /// environment of the test's `.environment` traits made again.
  public static func virtualTime(
    exploring exploration: Exploration,
    now: Date = Date(timeIntervalSinceReferenceDate: 0),
    leftoverWork: TestScheduler.LeftoverWork = .reported
  ) -> Self {
    VirtualTimeTrait(now: now, leftoverWork: leftoverWork, exploration: exploration)
  }
}
