/// The built-in ``Environment/continuousClock`` co-effect.
package enum ContinuousClockKey: BuiltInKey {
  package static var slot: Int { BuiltInSlot.continuousClock.rawValue }
  package static let member = "continuousClock"
  package static let liveValue = DurationClock.continuous
  /// A clock whose sleeps end at once: what `Environment.unimplemented()` answers after reporting
  /// the read. `Environment.test()` sets its `TestScheduler`'s virtual clock instead.
  package static var testValue: DurationClock { DurationClock(InlineClock()) }
}

extension Environment {
  /// The clock async code sleeps on and measures with: `Task.sleep(for:clock:)`,
  /// `clock.sleep(for:)`, swift-async-algorithms' `debounce(for:clock:)` and
  /// `AsyncTimerSequence`. Live: `ContinuousClock()`; in `Environment.test()` and in a
  /// virtual-time scope, the virtual clock of the environment's `TestScheduler`, so the test
  /// moves it with `advance(by:)`.
  ///
  /// ```swift
  /// try await environment.continuousClock.sleep(for: .seconds(2))
  /// let queries = input.debounce(for: .milliseconds(300), clock: environment.continuousClock)
  /// ```
  ///
  /// A ``DurationClock``, a concrete type, so clock-generic code accepts it (an `any Clock`
  /// cannot be passed to `debounce`). Named after the live clock it stands for, as in
  /// swift-dependencies; ``clock`` is the wall clock, which answers a `Date`.
  public var continuousClock: DurationClock {
    get { self[builtIn: ContinuousClockKey.self] }
    set { self[builtIn: ContinuousClockKey.self] = newValue }
  }
}
