public import Effects
public import Foundation

/// A virtual timeline that is both a `WorkScheduler` and a `WallClock`: time moves only when the
/// test says so, and work runs exactly when its deadline is reached.
///
/// App code schedules through the environment:
///
/// ```swift
/// @MainActor final class SearchModel {
///   private(set) var searches: [String] = []
///   private var pending: ScheduledWork?
///
///   func type(_ query: String, environment: Environment = .current) {
///     pending?.cancel()
///     pending = environment.scheduler.schedule(after: .milliseconds(300)) { @MainActor [weak self] in
///       self?.searches.append(query)
///     }
///   }
/// }
/// ```
///
/// and the test drives time by hand, asserting after every step:
///
/// ```swift
/// @MainActor @Test func searchesOnceTheUserStopsTyping() async {
///   let scheduler = TestScheduler()
///   let environment = Environment.test(scheduler: scheduler)
///   let model = SearchModel()
///   model.type("s", environment: environment)
///   await scheduler.advance(by: .milliseconds(100))
///   model.type("sw", environment: environment)
///   await scheduler.advance(by: .milliseconds(299))
///   #expect(model.searches == [])
///   await scheduler.advance(by: .milliseconds(1))
///   #expect(model.searches == ["sw"])
///   scheduler.assertNoPendingWork()
/// }
/// ```
///
/// Actions run synchronously on the thread that advances time (here the main actor's), so the
/// `@MainActor` callback runs there and then, at its deadline, just as it does under
/// `DispatchScheduler.main` in the app. (Advanced from another thread, a `@MainActor` callback is sent
/// on to the main actor as a task: the `await` forms in a virtual-time scope wait for it, a
/// `advanceSynchronously` does not.)
///
/// ## Rules
/// - Virtual time has one vocabulary: a `Duration` from the scheduler's ``start``. ``elapsed`` is
///   the current one, ``advanceSynchronously(to:fileID:filePath:line:column:)`` takes one, ``PendingWork/offset``
///   and the time since the start on the `continuousClock` are one, and messages write one as Swift code
///   (`.milliseconds(300)`). A `Date` appears only where the clock is read: ``now`` is
///   `start + elapsed`, converted when read. 100 ms + 200 ms is exactly the 300 ms instant.
/// - Work runs in order of deadline, then first scheduled first (FIFO) at the same instant.
/// - While an action runs, ``now`` and ``elapsed`` equal that action's own deadline.
/// - Work scheduled while advancing runs in the same call if its deadline falls inside the window.
/// - Cancelled work never runs and is no longer ``pending``.
/// - Repeating work runs at `delay`, `delay + interval`, `delay + 2 × interval`… (no drift).
/// - A call that runs more than ``maxRuns`` actions stops and reports an issue naming the line that
///   scheduled the work still due — an endless repeating timer under ``runSynchronously(fileID:filePath:line:column:)``
///   never hangs a test.
/// - Bad input — a negative delay or advance, a non-positive repeat interval, moving time
///   backwards, a ``maxRuns`` below 1 — is reported as a test issue at the line that passed it,
///   never a crash.
/// - Virtual time ends at `.seconds(Int64.max)`: a deadline at or past it is due never, and an
///   advance past it stops there (see ``advanceSynchronously(by:fileID:filePath:line:column:)``).
///
/// Any thread may schedule and cancel work (the state is behind a lock, and actions never run
/// while it is held); drive time (`advance`, `run`) from the test.
///
/// Storage is a radix heap keyed by (deadline, sequence): virtual time never goes back, so schedule,
/// cancel and run cost O(1) amortized: the cost per timer grows little from a thousand to a million.
public final class TestScheduler: WorkScheduler, WallClock, Sendable {
  /// The instant virtual time started at: ``now`` when ``elapsed`` is zero.
  public let start: Date

  let state: Locked<State>

  /// Creates a scheduler whose clock reads `now` and whose queue is empty.
  ///
  /// - Parameters:
  ///   - now: The starting instant (2001-01-01 00:00:00 UTC by default, so messages are stable).
  ///   - maxRuns: How many actions one call to `advance` or `run` may run before it stops
  ///     and reports runaway work: 1 or more. Less is reported at this call, and the default is kept.
  ///   - fileID: The file that made the scheduler: a `maxRuns` below 1 is reported at this call.
  ///   - filePath: The file's full path, which XCTest needs.
  ///   - line: The line that made the scheduler.
  ///   - column: The column of that call.
  public init(
    now: Date = Date(timeIntervalSinceReferenceDate: 0),
    maxRuns: Int = 100_000,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.start = now
    let callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let maxRuns = Self.checkedMaxRuns(maxRuns, keeping: 100_000, in: "TestScheduler(maxRuns:) got") {
      reportIssue($0, kind: .invalidArgument, at: callSite)
    }
    self.state = Locked(State(maxRuns: maxRuns))
  }

  deinit {
    // Nothing may outlive the scheduler: a leftover sleeper is resumed with CancellationError, so
    // no task stays suspended forever; dropped timers go with the queue.
    let leftovers = state.withLock { $0.removeAll() }
    for continuation in leftovers.sleepers {
      continuation.resume(throwing: CancellationError())
    }
  }

  /// Virtual time since ``start``: the exact sum of every advance.
  public var elapsed: Duration {
    state.withLock { $0.elapsed }
  }

  /// The current virtual instant: ``start`` plus ``elapsed``.
  public var now: Date {
    date(at: elapsed)
  }

  /// The most actions one call to `advance` or `run` may run before it stops and reports
  /// the work still due as runaway: 1 or more, 100,000 by default. Setting less is reported (at the
  /// line that set it, where the call stack can be read; else at the test) and changes nothing.
  public var maxRuns: Int {
    get { state.withLock { $0.maxRuns } }
    set {
      let kept = maxRuns
      let checked = Self.checkedMaxRuns(newValue, keeping: kept, in: "TestScheduler.maxRuns was set to") {
        reportRead($0, kind: .invalidArgument, fallback: nil)
      }
      state.withLock { $0.maxRuns = checked }
    }
  }

  /// Schedules `action` to run `delay` after the current virtual instant. A negative delay is
  /// reported as an issue at `callSite` and counts as zero.
  public func schedule(
    after delay: Duration,
    at callSite: CallSite,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledWork {
    let delay = checkedDelay(delay, at: callSite, in: "TestScheduler.schedule(after:)")
    let handle = state.withLock { state in
      state.queue.insert(deadline: state.elapsed + delay, callSite: callSite, work: .once(action))
    }
    return cancellation(of: handle)
  }

  /// Schedules `action` to run `delay` after the current virtual instant, then every `interval`.
  ///
  /// A negative delay is reported and counts as zero. An `interval` that is not positive would
  /// repeat forever at one instant: it is reported, and the work runs once, after `delay`.
  public func schedule(
    after delay: Duration,
    every interval: Duration,
    at callSite: CallSite,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledWork {
    let operation = "TestScheduler.schedule(after:every:)"
    let delay = checkedDelay(delay, at: callSite, in: operation)
    guard interval > .zero else {
      reportIssue(
        VirtualTimeWording.nonPositiveInterval(operation: operation, interval: interval.literal),
        kind: .invalidArgument,
        at: callSite
      )
      return schedule(after: delay, at: callSite, action)
    }
    let handle = state.withLock { state in
      state.queue.insert(
        deadline: state.elapsed + delay,
        callSite: callSite,
        work: .repeating(interval: interval, action)
      )
    }
    return cancellation(of: handle)
  }

  /// Suspends the current task until virtual time reaches `duration` from now.
  ///
  /// The task resumes when an `advance` or `run` reaches its deadline (even a delay of
  /// zero waits for one, like zero-delay ``schedule(after:at:_:)`` work). A negative duration is
  /// reported and counts as zero. While suspended it is listed in ``pending``.
  ///
  /// - Throws: `CancellationError` when the task is cancelled, before or while sleeping; the
  ///   sleeper is then removed from ``pending``.
  nonisolated(nonsending) public func sleep(for duration: Duration, at callSite: CallSite) async throws {
    let delay = checkedDelay(duration, at: callSite, in: "TestScheduler.sleep(for:)")
    try await sleep(until: { $0 + delay }, at: callSite, isolation: #isolation)
  }

  // MARK: Moving time

  /// Moves virtual time forward by `duration`, like
  /// ``advanceSynchronously(by:fileID:filePath:line:column:)``, and waits — exactly — for the tasks of the scope: first until every runnable task has reached
  /// its next suspension, then, after each action or sleeper it resumes, until every task it woke
  /// has run to its next suspension or its end.
  ///
  /// ```swift
  /// await scheduler.withVirtualTime {
  ///   let ticks = Task { for _ in 0..<3 { try await scheduler.sleep(for: .seconds(1)); count += 1 } }
  ///   await scheduler.advance(by: .seconds(2))
  ///   #expect(count == 2)
  /// }
  /// ```
  ///
  /// With no duration, it runs the work due now and waits for what that wakes, without moving
  /// time: `await scheduler.advance()`, which a test calls to let tasks it just started reach
  /// their first sleep.
  ///
  /// It is right wherever async code calls it. Inside ``withVirtualTime(leftoverWork:isolation:fileID:filePath:line:column:_:)``
  /// it waits for every task of the scope. Outside any scope it runs scheduled actions exactly as
  /// the synchronous form does — a view model's `schedule(after:)` callbacks need no scope — and
  /// when it resumes a sleeping task, which it cannot wait for there, it reports an issue naming
  /// the line where that task went to sleep. Called from a task that outlived its scope, or inside
  /// the scope of another scheduler, it reports that.
  public func advance(
    by duration: Duration = .zero,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let caller = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let operation = "await TestScheduler.advance(by:)"
    await drive(operation, at: caller) {
      target(advancingBy: duration, at: caller, operation: operation).map(Goal.time)
    }
  }

  /// Moves virtual time forward to `instant` (an offset from ``start``), waiting for the tasks of
  /// the scope like ``advance(by:isolation:fileID:filePath:line:column:)``.
  public func advance(
    to instant: Duration,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let caller = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let operation = "await TestScheduler.advance(to:)"
    await drive(operation, at: caller) { target(advancingTo: instant, at: caller, operation: operation).map(Goal.time) }
  }

  /// Runs work until none is pending, waiting for the tasks of the scope like
  /// ``advance(by:isolation:fileID:filePath:line:column:)``. A task that sleeps in an endless
  /// loop is stopped by ``maxRuns`` with an issue naming the line of its `sleep`.
  public func run(
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let caller = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    await drive("await TestScheduler.run()", at: caller) { .untilNothingIsPending }
  }

  // MARK: Moving time in synchronous code

  /// Moves virtual time forward by `duration` from synchronous code, running every action whose
  /// deadline is reached, in order, each at its own deadline; then leaves ``now`` at the end of the
  /// window.
  ///
  /// For a synchronous test of callbacks (`schedule(after:)`), where `await` cannot be written:
  ///
  /// ```swift
  /// func testTheToastHidesAfterOneSecond() {
  ///   let scheduler = TestScheduler()
  ///   scheduler.schedule(after: .seconds(1)) { ticks.append(scheduler.elapsed) }
  ///   scheduler.advanceSynchronously(by: .milliseconds(999))  // nothing yet
  ///   scheduler.advanceSynchronously(by: .milliseconds(1))    // runs it, at exactly 1 second
  /// }
  /// ```
  ///
  /// Async code calls ``advance(by:isolation:fileID:filePath:line:column:)``, which also waits for
  /// the tasks the scope runs. The two have different names so that the compiler chooses: a
  /// closure that forgets its `await` does not compile, instead of silently taking this form, and
  /// this form is unavailable from async code (`noasync`).
  ///
  /// With no duration, it runs the work due now (zero-delay work, and what that schedules for now)
  /// without moving time: `scheduler.advanceSynchronously()`.
  ///
  /// Work scheduled by those actions runs in the same call when it falls inside the window. A
  /// negative `duration` is reported as an issue here and nothing moves. Sleeping tasks whose
  /// deadline is reached are resumed, but this synchronous form cannot wait for them, so it
  /// reports an issue naming the line where each went to sleep: test async code with
  /// `await advance(by:)` inside `withVirtualTime`.
  ///
  /// Virtual time ends at `.seconds(Int64.max)` after ``start``. An advance past that end (a
  /// `.seconds(Int.max)` meant as "as far as it goes", or one huge advance too many) stops there,
  /// having run everything due before it, and never traps. Work due at or past the end — a
  /// `.seconds(Int.max)` timeout, a sleep that long, the next tick of a timer repeating that slowly —
  /// is due never, as under the live `DispatchScheduler`: no advance and no run runs it, and it
  /// stays in ``pending`` (`due never`) until it is cancelled, or the end of the virtual-time
  /// scope reports it like any leftover.
  @available(*, noasync, message: "in async code, write `await advance(by:)`: it also waits for the tasks it wakes")
  public func advanceSynchronously(
    by duration: Duration = .zero,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let caller = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let operation = "TestScheduler.advanceSynchronously(by:)"
    drain(caller: caller, operation: operation) {
      target(advancingBy: duration, at: caller, operation: operation).map(Goal.time)
    }
  }

  /// Moves virtual time forward to `instant`, an offset from ``start`` (compare ``elapsed``), from
  /// synchronous code, running every action due on the way. Async code calls
  /// ``advance(to:isolation:fileID:filePath:line:column:)``.
  ///
  /// The target is a `Duration`, not a `Date`, so it is exact: `advanceSynchronously(to: .seconds(3))`
  /// reaches the instant three seconds after the start however time got there. Moving backwards is
  /// reported as an issue here and nothing moves; an instant past `.seconds(Int64.max)`, where
  /// virtual time ends, moves time to that end (see
  /// ``advanceSynchronously(by:fileID:filePath:line:column:)``).
  @available(*, noasync, message: "in async code, write `await advance(to:)`: it also waits for the tasks it wakes")
  public func advanceSynchronously(
    to instant: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let caller = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let operation = "TestScheduler.advanceSynchronously(to:)"
    drain(caller: caller, operation: operation) {
      target(advancingTo: instant, at: caller, operation: operation).map(Goal.time)
    }
  }

  /// Runs work until none is pending, from synchronous code, moving time to each deadline in turn;
  /// ``now`` stays at the last one. Async code calls ``run(isolation:fileID:filePath:line:column:)``.
  ///
  /// Repeating work never ends: after ``maxRuns`` actions this stops and reports an issue at the
  /// line that scheduled the work still due. Use `advanceSynchronously(by:)` to run a repeating
  /// timer for a bounded time.
  @available(*, noasync, message: "in async code, write `await run()`: it also waits for the tasks it wakes")
  public func runSynchronously(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let caller = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    drain(caller: caller, operation: "TestScheduler.runSynchronously()") { .untilNothingIsPending }
  }

  // MARK: Virtual-time scopes

  /// Runs `operation` in virtual time: every task it starts runs on one serial thread owned by the
  /// scope, so the `await` forms of `advance` and `run` can wait — exactly — until each
  /// task has reached its next suspension.
  ///
  /// It opens the same scope as `@Test(.virtualTime)` and
  /// ``withVirtualTime(now:leftoverWork:isolation:fileID:filePath:line:column:_:)``, on this
  /// scheduler instead of a fresh one: inside it, this scheduler is ``TestScheduler/current``, and
  /// `Environment.current` is the environment set for the test moved onto this scheduler — or,
  /// with none set, an `Environment.test(scheduler:)` of its own, so nothing in the scope reads
  /// the live world. Call it with a scheduler you made:
  ///
  /// ```swift
  /// @Test func retriesAfterTwoSeconds() async {
  ///   let scheduler = TestScheduler()
  ///   await scheduler.withVirtualTime {
  ///     let model = ProfileModel(api: FailingOnceAPI(), environment: .test(scheduler: scheduler))
  ///     let load = Task { await model.load() }   // fails, then sleeps 2 s before retrying
  ///     await scheduler.advance(by: .seconds(1))
  ///     #expect(model.state == .failed)
  ///     await scheduler.advance(by: .seconds(1))
  ///     #expect(model.state == .loaded)
  ///     await load.value
  ///   }  // the end of the scope checks that nothing was left behind
  /// }
  /// ```
  ///
  /// ## What is exact
  /// The `await` forms return only when every task of the scope has reached its next virtual-time
  /// suspension or its end, from a `@MainActor` test or a nonisolated one: main-actor tasks and
  /// view models, plain nonisolated async functions they call, `MainActor.run`, actors shared by
  /// many tasks, child tasks and groups, `Task.yield()` on the main actor and in nonisolated code,
  /// streams and channels, and clock-generic code (the environment's `continuousClock` with
  /// swift-async-algorithms' `debounce`, `throttle`, `AsyncTimerSequence`).
  ///
  /// ## How it works, and its rules
  /// The scope's jobs run on two lanes, one job at a time on each: its own serial thread
  /// (nonisolated work and actors, sent there by the runtime's `swift_task_enqueueGlobal_hook`)
  /// and the main queue (main-actor work, counted through a proxy that the runtime's
  /// `swift_task_getMainExecutor_hook` hands to scope code). One count covers both, so "every task
  /// has reached its next suspension" is "the count is zero": no yielding a guessed number of
  /// times, no clock. Jobs of tasks outside the scope — other tests running in parallel — go to
  /// the real executors untouched.
  ///
  /// - **Lifetime**: start the code under test inside the scope, so that its tasks belong to it.
  ///   The hooks are installed when the first scope opens and removed when the last one closes;
  ///   the scope's thread ends with it.
  /// - **The end is exhaustive**: work still scheduled and tasks still sleeping on this scheduler
  ///   are reported at the line that scheduled them, and each task still suspended on anything
  ///   else at the line that started it (on Linux; elsewhere at this call); then all of it is
  ///   cancelled, and the scope returns even if a task ignores cancellation (that is reported
  ///   too). Pass `leftoverWork: .expected` to leave work running.
  /// - **No blocking**: the scope's nonisolated tasks share one thread. A task that blocks it (a
  ///   semaphore, `DispatchQueue.sync` onto work of the scope, a lock held across an `await`) is
  ///   given up on after a second — the others go on on a new thread — and reported.
  /// - **One scope per scheduler**: a second scope on this scheduler while one is open, an
  ///   `await advance` of another scheduler inside this scope, and an `advance` from inside work
  ///   the scheduler is running are reported.
  /// - **What cannot be exact is reported**: work resumed from outside the scope — a real
  ///   `Task.sleep`, I/O, a continuation resumed by another thread, `Task.yield()` inside an actor
  ///   (the runtime gives an actor's queued jobs no task executor, so the wake-up goes to the
  ///   default executor) — is still run by the scope, and reported at the `advance` that could not
  ///   wait for it. Sleep on the environment's `continuousClock` (or this scheduler's `sleep`), never `Task.sleep`, in code
  ///   under test.
  ///
  /// The scope needs the runtime's hooks; where they are unavailable (or another library installed
  /// one) the operation runs normally and an issue says so.
  public func withVirtualTime<R, Failure: Error>(
    leftoverWork: LeftoverWork = .reported,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ operation: () async throws(Failure) -> R
  ) async throws(Failure) -> R {
    try await withTestScope(
      at: FailureLocation(CallSite(fileID: fileID, filePath: filePath, line: line, column: column)),
      origin: "withVirtualTime",
      leftoverWork: leftoverWork,
      fresh: false
    ) { _ throws(Failure) in
      try await operation()
    }
  }

  /// The test's own scheduler, inside a test marked `@Test(.virtualTime)` (or a
  /// ``withVirtualTime(now:leftoverWork:isolation:fileID:filePath:line:column:_:)`` or
  /// `scheduler.withVirtualTime { … }` scope): the one `Environment.current.scheduler` and `clock`
  /// are, and the one to advance.
  ///
  /// ```swift
  /// @Test(.virtualTime) func tokenExpiresAfterAnHour() async {
  ///   let session = Session()   // reads Environment.current.clock
  ///   await TestScheduler.current.advance(by: .seconds(3_600))
  ///   #expect(session.isExpired)
  /// }
  /// ```
  ///
  /// Read anywhere else, it reports an issue saying how to open a scope, and answers a new
  /// scheduler, which nothing else uses. The issue is placed at the line that read it, where the
  /// stack says (else at the Swift Testing test, or on the XCTest case): in a test of either
  /// framework, or with no test on the task (a `Thread`, a Dispatch callback, a detached task) an
  /// issue of SwiftPM's Swift Testing run, which fails it. A detached task started inside a scope
  /// is run by the scope but does not carry it (it inherits no task-local value): the issue says so.
  public static var current: TestScheduler {
    if let scoped { return scoped }
    let detached = TestHost.current.virtualTimeScope && !carriesAScope
    reportRead(detached ? inADetachedTask : outsideAScope, kind: .wrongScheduler, fallback: nil)
    return TestScheduler()
  }

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

  // MARK: Pending work

  /// The work not run yet — callbacks, repeating timers and sleeping tasks — in the order it would
  /// run. Cancelled work is not listed.
  ///
  /// ```swift
  /// #expect(scheduler.pending.map(\.callSite.line) == [12])
  /// ```
  public var pending: [PendingWork] {
    let entries = state.withLock { state in
      state.queue.entries
    }
    return
      entries
      .sorted { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
      .map { entry in
        let kind: PendingWork.Kind
        switch entry.work {
        case .once: kind = .once
        case .repeating(let interval, _): kind = .repeating(every: interval)
        case .sleep: kind = .sleep
        }
        return PendingWork(offset: entry.deadline, callSite: entry.callSite, kind: kind)
      }
  }

  /// Fails the test if any work is still pending, listing each piece with the line that scheduled
  /// it; then drops that work (sleeping tasks get `CancellationError`), so nothing outlives the test.
  ///
  /// Call it at the end of a test, or in teardown:
  ///
  /// ```swift
  /// @Test func toastDismissesItself() async {
  ///   let scheduler = TestScheduler()
  ///   showToast("Saved", on: toast, environment: .test(scheduler: scheduler))
  ///   await scheduler.advance(by: .seconds(3))
  ///   #expect(toast.isVisible == false)
  ///   scheduler.assertNoPendingWork()
  /// }
  /// ```
  public func assertNoPendingWork(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let leftovers = pending
    guard !leftovers.isEmpty else { return }
    let removed = state.withLock { $0.removeAll() }
    for continuation in removed.sleepers {
      continuation.resume(throwing: CancellationError())
    }
    reportIssue(
      VirtualTimeWording.pendingWork(leftovers: leftovers, elapsed: elapsed.literal),
      kind: .assertionFailed,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// One piece of work a ``TestScheduler`` has not run yet: a callback, a repeating timer, or a
  /// sleeping task.
  public struct PendingWork: Hashable, Sendable, CustomStringConvertible {
    /// What kind of work it is.
    public enum Kind: Hashable, Sendable {
      /// A one-shot `schedule(after:_:)`.
      case once
      /// A repeating `schedule(after:every:_:)`.
      case repeating(every: Duration)
      /// A task suspended in `sleep(for:)`.
      case sleep
    }

    /// When it is due: the time from the scheduler's ``TestScheduler/start``, in virtual time's one
    /// vocabulary (``TestScheduler/elapsed``, ``TestScheduler/advanceSynchronously(to:fileID:filePath:line:column:)``,
    /// and the time from the start of the environment's `continuousClock` are the same kind of value).
    ///
    /// `.seconds(Int64.max)` for work that is due never: its deadline was at or past that instant,
    /// where virtual time ends (see ``TestScheduler/advanceSynchronously(by:fileID:filePath:line:column:)``).
    public var offset: Duration
    /// The line that scheduled it.
    public var callSite: CallSite
    /// What kind of work it is.
    public var kind: Kind

    init(offset: Duration, callSite: CallSite, kind: Kind) {
      self.offset = offset
      self.callSite = callSite
      self.kind = kind
    }

    /// Describes the work for a failure message, e.g.
    /// `sleep due at .milliseconds(1500), scheduled at AppTests/SearchTests.swift:42`, or for work
    /// due never, `sleep due never (at or past .seconds(9223372036854775807), where virtual time
    /// ends), scheduled at AppTests/SearchTests.swift:42`.
    public var description: String {
      let what: String
      switch kind {
      case .once: what = "work"
      case .repeating(let interval): what = "repeating work (every \(interval.literal))"
      case .sleep: what = "sleep"
      }
      let due =
        offset >= TimerQueue.never
        ? "due never (at or past \(TimerQueue.never.literal), where virtual time ends)"
        : "due at \(offset.literal)"
      return "\(what) \(due), scheduled at \(callSite)"
    }
  }

  // MARK: Timelines

  /// A sequence that plays `timeline` on this scheduler: each value, and its end, is emitted when
  /// virtual time reaches its instant. The input of a test of an operator or a model, with no
  /// continuation to drive by hand.
  ///
  /// ```swift
  /// let typed = scheduler.sequence(playing: [
  ///   .value("p", at: .zero),
  ///   .value("pi", at: .milliseconds(100)),
  ///   .finished(at: .seconds(1)),
  /// ])
  /// let model = SearchModel(queries: typed)
  /// await scheduler.advance(by: .seconds(1))
  /// ```
  ///
  /// Instants are ``elapsed`` values: `.zero` is the start of the scope. An event at the current
  /// instant is played at the next advance (`await scheduler.advance()` plays it). Values wait in
  /// the sequence until it is iterated, as a stream's do; a consumer that stops (its task
  /// cancelled) stops the playing. Events still to play when the scope ends are leftover work,
  /// reported at this call.
  ///
  /// Bad input is reported at this call, and played as well as it can be: an event at an instant
  /// already past is played at the next advance, one earlier than the event before it is played at that
  /// event's instant, and an event after the end is dropped — with the report saying which.
  public func sequence<Element: Sendable>(
    playing timeline: Timeline<Element, Never>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> AsyncStream<Element> {
    let callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let (stream, continuation) = AsyncStream<Element>.makeStream()
    let work = play(timeline, at: callSite) { event in
      switch event {
      case .value(let value, _): continuation.yield(value)
      case .finished: continuation.finish()
      }
    }
    continuation.onTermination = { _ in work.forEach { $0.cancel() } }
    return stream
  }

  /// A throwing sequence that plays `timeline` on this scheduler: each value, its end, or its
  /// failure, when virtual time reaches its instant. See
  /// ``sequence(playing:fileID:filePath:line:column:)->AsyncStream<Element>``.
  ///
  /// ```swift
  /// let prices = scheduler.sequence(playing: [
  ///   .value(101, at: .zero),
  ///   .failed(URLError(.notConnectedToInternet), at: .seconds(2)),
  /// ])
  /// ```
  @_disfavoredOverload
  public func sequence<Element: Sendable>(
    playing timeline: Timeline<Element, any Error>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> AsyncThrowingStream<Element, any Error> {
    let callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
    let work = play(timeline, at: callSite) { event in
      switch event {
      case .value(let value, _): continuation.yield(value)
      case .finished: continuation.finish()
      case .failed(let failure, _): continuation.finish(throwing: failure)
      }
    }
    continuation.onTermination = { _ in work.forEach { $0.cancel() } }
    return stream
  }
}
