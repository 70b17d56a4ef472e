import Foundation

extension Environment {
  /// The real world: the system clock, `Bundle.main`, ``DiskFileSystem`` (to read and to write),
  /// ``UserDefaultsStore`` over `UserDefaults.standard`, ``DispatchScheduler`` on a private serial
  /// queue, standard output, no analytics ``events`` (set yours), `ContinuousClock` for
  /// ``continuousClock``, `UUID()` for ``uuid``, the system's generator for ``random``,
  /// ``URLSessionNetwork`` over `URLSession.shared` for ``network``, and the user's current
  /// calendar, locale and time zone (auto-updating): every co-effect's `liveValue`.
  ///
  /// ```swift
  /// let result = compute(file: "number.txt", environment: .live)
  /// ```
  public static let live = Environment()

  /// The environment of the current task.
  ///
  /// Inside `withEnvironment(_:operation:)` it is the environment given there (task-local, so it
  /// follows child tasks and never leaks into tests running in parallel). Everywhere else it is
  /// the process's root environment: ``live``, or what the app installed with
  /// ``bootstrap(_:fileID:filePath:line:column:)``.
  ///
  /// ```swift
  /// func compute(file: String, environment: Environment = .current) -> Outcome<Int, Effect> { … }
  /// ```
  public static var current: Environment {
    $scoped.get() ?? root
  }

  /// The root environment, read once (the first time ``current`` is read outside any scope) and
  /// kept: no lock on later reads.
  private static let root = RootEnvironment.shared.publish()

  /// Installs `environment` as the process's root environment: what ``current`` answers outside
  /// any `withEnvironment(_:operation:)`.
  ///
  /// Call it once, at launch, before any code reads ``current``:
  ///
  /// ```swift
  /// @main struct MyApp: App {
  ///   init() {
  ///     var environment = Environment.live
  ///     environment[APIClientKey.self] = LiveAPIClient(baseURL: .production)
  ///     Environment.bootstrap(environment)
  ///   }
  /// }
  /// ```
  ///
  /// Calling it a second time, or after code has read ``current`` outside any scope (and so has
  /// seen the previous root), is a programmer error. It changes nothing — the first root stays —
  /// and says so: in a test, as an issue at this call (in the body of an exit test too, whose
  /// issues Swift Testing sends to the test that ran it); with no test running — an app, or the
  /// launch code of an app hosting tests, which runs before any test — as one line on standard
  /// error naming the call sites. It never stops the process. Tests should not bootstrap; they
  /// override the environment for one scope with `withEnvironment(_:operation:)` or the
  /// `.environment` test trait.
  public static func bootstrap(
    _ environment: Environment,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    do {
      try RootEnvironment.shared.bootstrap(environment, at: callSite)
    } catch {
      error.report()
    }
  }

  /// The environment bound by the innermost `withEnvironment` of this task, if any.
  @TaskLocal package static var scoped: Environment?
}

/// Runs `operation` with ``Environment/current`` changed by `modify`, then restores it.
///
/// The change is task-local: it applies to `operation` and to tasks it creates, never to other
/// tasks, so tests that each override the environment can run in parallel.
///
/// ```swift
/// let result = withEnvironment({ $0.clock = FixedClock(date) }) {
///   greeting()  // reads Environment.current.clock
/// }
/// ```
///
/// In a test (Swift Testing or XCTest) that set no environment, `modify` changes a fresh
/// `Environment.test()`, as the `.environment { … }` trait's closure form does: the fields it
/// does not set are test doubles, not the live world. Elsewhere it changes ``Environment/current``.
/// A test that wants the live world with one field changed says so:
/// `withEnvironment({ $0 = .live; $0.clock = FixedClock(date) }) { … }`.
public func withEnvironment<R>(
  _ modify: (inout Environment) throws -> Void,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  operation: () throws -> R
) rethrows -> R {
  var environment = Environment.toChange(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  try modify(&environment)
  return try Environment.$scoped.withValue(environment, operation: operation)
}

/// Runs the asynchronous `operation` with ``Environment/current`` changed by `modify`, then
/// restores it. Works from any isolation, `@MainActor` included.
///
/// ```swift
/// let profile = await withEnvironment({ $0.defaults = InMemoryDefaults(["userID": 42]) }) {
///   await model.loadProfile()
/// }
/// ```
///
/// In a test that set no environment, `modify` changes a fresh `Environment.test()`, as the
/// synchronous form's does.
public func withEnvironment<R>(
  _ modify: (inout Environment) throws -> Void,
  isolation: isolated (any Actor)? = #isolation,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  operation: () async throws -> R
) async rethrows -> R {
  var environment = Environment.toChange(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  try modify(&environment)
  return try await Environment.$scoped.withValue(environment, operation: operation)
}

/// Runs `operation` with ``Environment/current`` replaced by `environment`.
///
/// ```swift
/// withEnvironment(.live) { runApp() }
/// ```
public func withEnvironment<R>(
  _ environment: Environment,
  operation: () throws -> R
) rethrows -> R {
  try Environment.$scoped.withValue(environment, operation: operation)
}

/// Runs the asynchronous `operation` with ``Environment/current`` replaced by `environment`.
public func withEnvironment<R>(
  _ environment: Environment,
  isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> R
) async rethrows -> R {
  try await Environment.$scoped.withValue(environment, operation: operation)
}

extension Environment {
  /// What the closure form of `withEnvironment` changes: ``current``, except the live root read in
  /// a test, for which test support makes a fresh `Environment.test()` at `callSite`. The live
  /// world with one field swapped is never what a test means: its other fields would be read live.
  static func toChange(at callSite: CallSite) -> Environment {
    let current = Environment.current
    guard case .liveInTest = current.testContext?.reads,
      let test = TestSupportLink.reporter?.testEnvironment(madeAt: callSite)
    else { return current }
    return test
  }
}
