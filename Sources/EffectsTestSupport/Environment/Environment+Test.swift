public import Effects
public import Foundation

extension Environment {
  /// A deterministic environment for tests, with fresh doubles on every call: nothing in it reads
  /// or writes the real world.
  ///
  /// - `clock` and `scheduler`: one fresh ``TestScheduler`` starting at `now`, so the clock moves
  ///   exactly when scheduled work runs (reach it with `environment.scheduler as! TestScheduler`,
  ///   or create it yourself and call ``test(scheduler:fileID:filePath:line:column:)``);
  ///   `continuousClock`: a `Clock` on the same scheduler's virtual time, so async code that
  ///   sleeps on it (`Task.sleep(for:clock:)`, `debounce`) is on the same virtual time;
  /// - `uuid`: an `IncrementingUUIDs` of its own (`UUID(0)`, `UUID(1)`, …); `random`:
  ///   `RandomSource(seed: 0)` of its own, so every test draws the same numbers;
  /// - `bundle`: no resources; `fileReader` and `fileWriter`: one empty `InMemoryFileSystem`, so
  ///   what effects write reads back; `defaults`: an empty `InMemoryDefaults`;
  /// - `console`: an `InMemoryConsole`; `events`: an `InMemoryEventLog` (read them back with
  ///   ``printedLines`` and ``trackedEvents``);
  /// - `network`: a ``StubNetwork`` with no stubs, on the same scheduler: every request the code
  ///   under test sends fails the test, until the test sets a network with stubs;
  /// - `calendar`: gregorian, in `timeZone` UTC and `locale` `en_US_POSIX`;
  /// - app keys: their `testValue` — a key without one answers its `liveValue` and reports an
  ///   issue naming the key, at the line that read it (on Linux; elsewhere at the line that called
  ///   `test(now:)`).
  ///
  /// ```swift
  /// @Test func computesTheSquareOfTheBundledNumber() {
  ///   var environment = Environment.test()
  ///   environment.bundle = FixtureBundle(["number.txt": "/fixtures/number.txt"])
  ///   environment.fileReader = InMemoryFileSystem(["/fixtures/number.txt": "123"])
  ///   #expect(compute(file: "number.txt", environment: environment).value == 15129)
  /// }
  /// ```
  public static func test(
    now: Date = Date(timeIntervalSinceReferenceDate: 0),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Environment {
    test(scheduler: TestScheduler(now: now), fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// A deterministic environment for tests whose `clock` and `scheduler` are both `scheduler`, and
  /// whose `continuousClock` is its virtual clock; every other field as in ``test(now:fileID:filePath:line:column:)``.
  ///
  /// ```swift
  /// @Test func toastDismissesAfterThreeSeconds() async {
  ///   let scheduler = TestScheduler()
  ///   let toast = ToastModel()
  ///   withEnvironment(.test(scheduler: scheduler)) { toast.show("Saved") }
  ///   await scheduler.advance(by: .seconds(3))
  ///   #expect(toast.text == nil)
  ///   scheduler.assertNoPendingWork()
  /// }
  /// ```
  public static func test(
    scheduler: TestScheduler,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Environment {
    test(
      scheduler: scheduler,
      origin: "Environment.test()",
      callSite: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// `test(scheduler:)` for a scope that test support opens (a virtual-time trait), named by
  /// `origin` in messages.
  static func test(scheduler: TestScheduler, origin: String, callSite: CallSite?) -> Environment {
    var environment = Environment(
      testing: TestContext(
        callSite: callSite,
        origin: origin,
        reads: .deterministic,
        report: { reportRead($0, kind: .missingTestValue, fallback: $1) }
      )
    )
    // Set at once (one copy of the environment, not six): `useVirtualTime(of:at:)`, then a file
    // system for both `fileReader` and `fileWriter`, then a network on the scheduler. Every
    // virtual-time scope makes one (#40).
    let files = InMemoryFileSystem()
    environment.set(
      virtualTime(of: scheduler, at: callSite) + [
        BuiltInValue(FileReaderKey.self, files),
        BuiltInValue(FileWriterKey.self, files),
        BuiltInValue(NetworkKey.self, StubNetwork(scheduler: scheduler, at: callSite)),
      ]
    )
    return environment
  }

  /// An environment in which every co-effect reports an issue when read, until the test assigns it.
  ///
  /// Start from it to declare exactly the inputs a function may use — "exhaustive co-effects". A
  /// read of any field (`clock`, `bundle`, `fileReader`, `fileWriter`, `defaults`, `scheduler`,
  /// `console`, `events`, `network`, `calendar`, `locale`, `timeZone`, `continuousClock`, `uuid`, `random`) or
  /// of any app key the test did not set
  /// fails the test with a message naming the co-effect, at the line that read it (or, where the
  /// stack cannot say, the line that called `unimplemented()`). (The read then answers a harmless
  /// in-memory placeholder, so the test goes on and reports everything it finds: for
  /// `continuousClock`, a clock whose sleeps end at once.) A read is reported, not each use: a
  /// clock read once and slept on a thousand times by a timer reports once, at the line that read
  /// it.
  ///
  /// ```swift
  /// @Test func computeReadsOnlyTheBundleAndTheFile() {
  ///   var environment = Environment.unimplemented()
  ///   environment.bundle = FixtureBundle(["number.txt": "/fixtures/number.txt"])
  ///   environment.fileReader = InMemoryFileSystem(["/fixtures/number.txt": "123"])
  ///   #expect(compute(file: "number.txt", environment: environment).value == 15129)
  ///   // reading environment.clock inside compute would fail this test
  /// }
  /// ```
  ///
  /// It is a function, not a property, so that it can capture the test's source location.
  public static func unimplemented(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Environment {
    Environment(
      testing: TestContext(
        callSite: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
        origin: "Environment.unimplemented()",
        reads: .unimplemented,
        report: { reportRead($0, kind: .missingTestValue, fallback: $1) }
      )
    )
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
