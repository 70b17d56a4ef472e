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

  init(now: Date, leftoverWork: TestScheduler.LeftoverWork) {
    self.now = now
    self.leftoverWork = leftoverWork
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
    try await TestScheduler(now: now).withTestScope(
      at: FailureLocation(test.sourceLocation),
      origin: "@Test(.virtualTime)",
      leftoverWork: leftoverWork
    ) { _ in try await function() }
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
}
