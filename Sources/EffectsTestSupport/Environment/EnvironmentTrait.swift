public import Effects
public import Testing

/// A Swift Testing trait that runs a test (or every test of a suite) inside
/// `withEnvironment(_:operation:)`.
///
/// ```swift
/// @Test(.environment { $0.clock = FixedClock(Date(timeIntervalSince1970: 0)) })
/// func greetsAtMidnight() {
///   #expect(greeting() == "Good evening")  // greeting() reads Environment.current
/// }
///
/// @Suite(.environment(.test()))
/// struct CheckoutTests { … }
/// ```
///
/// The environment is made afresh for every test, and for every argument of a parameterized
/// test: `.environment(.test())` on a suite gives each test its own scheduler, defaults and file
/// system, so nothing one test writes is seen by another. A suite's trait applies first, then the
/// test's own. The closure form changes the suite's environment when there is one, and otherwise
/// a fresh `Environment.test()`: the fields it does not set are test doubles, never the live world.
/// The value form, `.environment(.test())` on a test, replaces the suite's environment. To run
/// against the real world on purpose, say so: `.environment(.live)`. The override is task-local:
/// tests running in parallel each see their own. Inside a virtual-time scope
/// (`@Test(.virtualTime)`, in either order), the environment's `scheduler` and `clock` are the
/// scope's ``TestScheduler``, and its `continuousClock` the scheduler's virtual clock.
public struct EnvironmentTrait: TestTrait, SuiteTrait, TestScoping {
  private let modify: @Sendable (inout Environment) -> Void
  /// The environment the trait starts from: its own, or — for the closure form, outside a suite
  /// that set one — a fresh test environment.
  private let start: @Sendable () -> Environment
  /// Whether the trait starts from the suite's environment when there is one (the closure form).
  private let extendsSuite: Bool

  init(
    startingFrom start: @escaping @Sendable () -> Environment,
    extendsSuite: Bool,
    _ modify: @escaping @Sendable (inout Environment) -> Void
  ) {
    self.start = start
    self.extendsSuite = extendsSuite
    self.modify = modify
  }

  /// Applied to each test of a suite, not once around the whole suite.
  public var isRecursive: Bool { true }

  /// Runs `function` inside `withEnvironment` with this trait's change, made afresh for each test
  /// case.
  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    // A suite gets no environment of its own: each of its tests gets a fresh one.
    guard testCase != nil else {
      try await function()
      return
    }
    // The closure form extends only what another `.environment` trait installed (its suite's):
    // a virtual-time scope also sets `Environment.current`, but on top of the live root.
    var environment = (extendsSuite ? Self.installed : nil) ?? start()
    modify(&environment)
    // Inside a virtual-time scope the scope's scheduler is the test's time, whatever the
    // environment brought: the code under test and the test must advance the same one.
    if let scheduler = TestScheduler.scoped {
      environment.useVirtualTime(of: scheduler)
    }
    try await Self.$installed.withValue(environment) {
      try await withEnvironment(environment) {
        try await function()
      }
    }
  }

  /// The environment the innermost `.environment` trait installed for the running test.
  @TaskLocal private static var installed: Environment?

  /// Runs `operation` with the environment `test`'s `.environment` traits make, made afresh now
  /// (each applied in turn, as they are when the test starts): an explored test's run must not see
  /// what an earlier run did to the doubles of an environment a trait made once, outside the runs.
  /// With no such trait, `operation` runs as it is.
  static func withFreshEnvironment(
    of test: Test,
    _ operation: () async throws -> Void
  ) async throws {
    var environment: Environment?
    for trait in test.traits.compactMap({ $0 as? EnvironmentTrait }) {
      var made = (trait.extendsSuite ? environment : nil) ?? trait.start()
      trait.modify(&made)
      environment = made
    }
    guard var environment else { return try await operation() }
    if let scheduler = TestScheduler.scoped {
      environment.useVirtualTime(of: scheduler)
    }
    try await $installed.withValue(environment) {
      try await withEnvironment(environment) {
        try await operation()
      }
    }
  }
}

extension Trait where Self == EnvironmentTrait {
  /// Runs the test with its suite's environment — or, without one, a fresh `Environment.test()` —
  /// changed by `modify`.
  ///
  /// ```swift
  /// @Test(.environment { $0.defaults = InMemoryDefaults(["onboarded": true]) })
  /// func skipsOnboarding() { … }
  /// ```
  public static func environment(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ modify: @escaping @Sendable (inout Environment) -> Void
  ) -> Self {
    EnvironmentTrait(
      startingFrom: { .test(fileID: fileID, filePath: filePath, line: line, column: column) },
      extendsSuite: true,
      modify
    )
  }

  /// Runs the test with `Environment.current` replaced by `environment`, evaluated afresh for
  /// every test and every argument: `.environment(.test())` on a suite gives each test its own
  /// scheduler, defaults and file system.
  ///
  /// ```swift
  /// @Test(.environment(.test(now: launchDate)))
  /// func showsTheLaunchBanner() { … }
  /// ```
  public static func environment(_ environment: @autoclosure @escaping @Sendable () -> Environment) -> Self {
    EnvironmentTrait(startingFrom: environment, extendsSuite: false) { _ in }
  }
}
