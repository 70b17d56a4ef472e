public import Effects

extension Environment {
  /// A copy of this environment that logs every read of its co-effects into `log`: assert what a
  /// function *read*, the dual of asserting the effects it described.
  ///
  /// ```swift
  /// @Test func computeReadsTheBundleThenTheFile() {
  ///   var environment = Environment.test()
  ///   environment.bundle = FixtureBundle(["number.txt": "/fixtures/number.txt"])
  ///   environment.fileReader = InMemoryFileSystem(["/fixtures/number.txt": "123"])
  ///   let log = CallLog()
  ///
  ///   _ = compute(file: "number.txt", environment: environment.recording(into: log))
  ///
  ///   log.assertCalls([
  ///     .init("bundle.path", "number.txt"),
  ///     .init("fileReader.contents", "/fixtures/number.txt"),
  ///   ])
  /// }
  /// ```
  ///
  /// Each read is logged with a name and a description naming what was read:
  ///
  /// | read | name | description |
  /// |---|---|---|
  /// | `bundle.path(forResource: "number", ofType: "txt")` | `bundle.path` | `number.txt` (`*.txt` for a `nil` name) |
  /// | `fileReader.contents(atPath:)`, `string(atPath:)` | `fileReader.contents` | the path |
  /// | `defaults.value(for:)`, with a key or its name | `defaults.value` | the key |
  /// | `clock.now` | `clock.now` | empty |
  /// | `scheduler.now` | `scheduler.now` | empty |
  /// | `scheduler.schedule(after:)` | `scheduler.schedule` | `after .seconds(3)` |
  /// | `scheduler.schedule(after:every:)` | `scheduler.schedule` | `after .seconds(0) every .seconds(5)` |
  /// | `scheduler.sleep(for:)` | `scheduler.sleep` | `for .seconds(2)` |
  /// | `network.send(_:)` | `network.send` | the request: `GET https://api.example.com/me` |
  /// | `continuousClock.sleep(for:)`, `sleep(until:)`, `Task.sleep(for:clock:)` | `continuousClock.sleep` | `for .seconds(2)` (from `now` to the deadline) |
  /// | `uuid()` | `uuid` | empty |
  ///
  /// Writes (`defaults.set`) pass through unlogged: they are effects, asserted as effects; so
  /// are the targets of effects (`fileWriter`, `console`, `events`), which are not wrapped. The
  /// value fields (`calendar`, `locale`, `timeZone`) and app keys are not wrapped. Reads of
  /// `continuousClock.now` are not logged: `sleep(for:)` and clock-generic code (`debounce`,
  /// timers) read it for every deadline they compute, so the log would list their bookkeeping.
  /// `random` is not wrapped: the standard library draws from it a number of times that depends on
  /// its algorithms (`Int.random(in:using:)` draws again to reject a biased value), so a log of
  /// draws would pin the standard library, not the code under test; pin the numbers with a seed
  /// instead. Share the log with spies to see reads and calls in one sequence.
  ///
  /// Wrapping reads no field: a field of `Environment.unimplemented()` that the test did not set
  /// still reports when the code under test reads it (and the read is logged too).
  public func recording(into log: CallLog) -> Environment {
    self
      .decorating(ClockKey.self) { RecordingClock(base: $0, log: log) }
      .decorating(BundleKey.self) { RecordingBundle(base: $0, log: log) }
      .decorating(FileReaderKey.self) { RecordingFileReader(base: $0, log: log) }
      .decorating(DefaultsStoreKey.self) { RecordingDefaults(base: $0, log: log) }
      .decorating(SchedulerKey.self) { RecordingScheduler(base: $0, log: log) }
      .decorating(NetworkKey.self) { RecordingNetwork(base: $0, log: log) }
      .decorating(ContinuousClockKey.self) { DurationClock(RecordingContinuousClock(base: $0, log: log)) }
      .decorating(UUIDKey.self) { RecordingUUIDs(base: $0, log: log) }
  }
}
