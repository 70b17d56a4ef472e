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

extension Environment {
  /// Makes `scheduler` this environment's `scheduler` and its `clock`, and the scheduler's virtual
  /// clock its `continuousClock`. There being no line to name for a `Clock`'s sleep, the clock's
  /// sleeps are listed as scheduled at `callSite` (where the test made the environment), or, for
  /// an environment a scope moves onto its scheduler, inside the library: the end of the scope
  /// then reports them at the scope, naming `environment.continuousClock`. The network of `Environment.test()` (or one the test made) sleeps its
  /// latencies on the scheduler too, and its stubs are checked when the scope ends. What
  /// `recording(into:)` wrapped them in stays: the new values are logged as the old ones were.
  ///
  /// Returns what puts the network back on the scheduler it used before, for a scope that moves
  /// an environment for its own time only.
  @discardableResult
  mutating func useVirtualTime(of scheduler: TestScheduler, at callSite: CallSite? = nil) -> @Sendable () -> Void {
    set(Self.virtualTime(of: scheduler, at: callSite))
    guard
      let network = given(NetworkKey.self, builtIn: (NetworkKey.member, NetworkKey.slot)).flatMap(
        RecordingNetwork.stubs(in:)
      )
    else { return {} }
    let previous = network.useScheduler(scheduler)
    network.checkUnusedStubs(atEndOf: scheduler)
    return { network.useScheduler(previous) }
  }

  /// What ``useVirtualTime(of:at:)`` sets: `scheduler` as the `scheduler` and the `clock`, and its
  /// virtual clock as the `continuousClock`.
  static func virtualTime(of scheduler: TestScheduler, at callSite: CallSite?) -> [BuiltInValue] {
    [
      BuiltInValue(SchedulerKey.self, scheduler),
      BuiltInValue(ClockKey.self, scheduler),
      BuiltInValue(
        ContinuousClockKey.self,
        DurationClock(TestScheduler.VirtualClock(scheduler, callSite: callSite ?? CallSite()))
      ),
    ]
  }
}
