extension WorkScheduler {
  /// Runs `action` on the main actor, once, `delay` from now: for view models, whose callbacks
  /// touch main-actor state.
  ///
  /// Mark the closure `@MainActor` (or pass a `@MainActor` method) and it may use the model
  /// directly, on any scheduler:
  ///
  /// ```swift
  /// @MainActor final class ToastModel {
  ///   private(set) var message: String?
  ///   private var hiding: ScheduledWork?
  ///
  ///   func show(_ text: String, environment: Environment = .current) {
  ///     message = text
  ///     hiding?.cancel()
  ///     hiding = environment.scheduler.schedule(after: .seconds(3)) { @MainActor in self.message = nil }
  ///   }
  /// }
  /// ```
  ///
  /// Where the scheduler runs the work on the main queue — ``DispatchScheduler/main``, or a
  /// `TestScheduler` advanced from a `@MainActor` test — it runs there and then, at its deadline.
  /// Anywhere else — ``DispatchScheduler``'s private queue, ``InlineScheduler`` called off the main
  /// actor, a `TestScheduler` advanced by a nonisolated test — it is sent on to the main actor as a
  /// task, queued behind the work already waiting there. Inside a virtual-time scope,
  /// `await advance` waits for that task, so the test stays exact; `advanceSynchronously` off the
  /// main actor returns before it runs, so drive main-actor code from a `@MainActor` test.
  /// Cancelling the returned work stops it even after it was sent on, as long as it has not
  /// started.
  ///
  /// Swift picks between this method and the `@Sendable` one by the closure's type, never by what
  /// its body touches: without `@MainActor in`, a trailing closure is the `@Sendable` one's and runs
  /// on the scheduler's thread. Passing a method by name takes the label:
  /// `schedule(after: .seconds(3), onMainActor: model.dismiss)`.
  @discardableResult
  public func schedule(
    after delay: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    onMainActor action: @escaping @MainActor @Sendable () -> Void
  ) -> ScheduledWork {
    let callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    return Self.onMainActor(action) { schedule(after: delay, at: callSite, $0) }
  }

  /// Runs `action` on the main actor `delay` from now, then every `interval` until the returned
  /// work is cancelled.
  ///
  /// ```swift
  /// @MainActor final class CountdownModel {
  ///   private(set) var secondsLeft = 10
  ///   private var ticking: ScheduledWork?
  ///
  ///   func start(environment: Environment = .current) {
  ///     ticking = environment.scheduler.schedule(after: .seconds(1), every: .seconds(1)) { @MainActor in
  ///       self.secondsLeft -= 1
  ///       if self.secondsLeft == 0 { self.ticking?.cancel() }
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// Each tick runs like the work of the one-off form: on the main queue there and then, anywhere
  /// else sent on to the main actor. The deadlines are the scheduler's, so the ticks do not drift.
  /// A tick sent on but not yet started when the work is cancelled does not run.
  @discardableResult
  public func schedule(
    after delay: Duration,
    every interval: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    onMainActor action: @escaping @MainActor @Sendable () -> Void
  ) -> ScheduledWork {
    let callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    return Self.onMainActor(action) { schedule(after: delay, every: interval, at: callSite, $0) }
  }

  /// Schedules `action` through `schedule` as main-actor work, and returns work whose cancelling
  /// also stops a run already sent on to the main actor.
  private static func onMainActor(
    _ action: @escaping @MainActor @Sendable () -> Void,
    scheduledBy schedule: (@escaping @Sendable () -> Void) -> ScheduledWork
  ) -> ScheduledWork {
    let work = MainActorAction(action)
    let scheduled = schedule(work.run)
    return ScheduledWork {
      work.cancel()
      scheduled.cancel()
    }
  }
}
