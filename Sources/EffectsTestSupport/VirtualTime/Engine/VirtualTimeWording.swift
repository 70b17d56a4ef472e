import Effects

/// Every report text of exact virtual time, in one place: the engine's files decide when to
/// report, and call these for the words. What a scope says where virtual time cannot work is in
/// `VirtualTimeAvailability`.
enum VirtualTimeWording {
  /// An `await advance` or `run` whose waiting task was cancelled (a test's time limit).
  static func cancelledWhileWaiting(operation: String) -> String {
    """
    \(operation) was cancelled while it waited for the tasks of the scope (the test's time limit?), and \
    returns without waiting for them. Tasks that never all suspend keep a scope busy: a loop of Task.yield() \
    polling for something, or a job that does not return.
    """
  }

  /// An `await advance` or `run` that stopped waiting for a scope whose tasks never all suspend.
  static func gaveUpOnABusyScope(operation: String, busyJobs: UInt64, busyLooks: Int, interval: String) -> String {
    """
    \(operation) stopped waiting for the tasks of the scope: they kept running, \(busyJobs) jobs or more \
    in each of \(busyLooks) spans of \(interval), without ever all suspending — a loop \
    of Task.yield() polling for something, such as work this call would run? It goes on without waiting for \
    them, so what the test sees after this line may depend on timing. Let the loop await what it polls for \
    (sleep on the scheduler, or await a stream or a continuation) instead of yielding.
    """
  }

  /// An advance of this scheduler from inside the scope of another.
  static func advancedInAnotherSchedulersScope(operation: String, ownScopeSite: FailureLocation?) -> String {
    let ownScope = ownScopeSite.map { "; this one's scope is open at \($0)" } ?? ", and this one has no scope open"
    return """
      \(operation) was called inside a withVirtualTime scope of another \
      TestScheduler\(ownScope). \
      Advance the scheduler whose scope the code runs in: one scheduler per test, shared by every \
      environment it builds.
      """
  }

  /// An advance from a task that outlived its scope.
  static func advancedByATaskThatOutlivedItsScope(operation: String) -> String {
    """
    \(operation) was called by a task that outlived its withVirtualTime scope, \
    so it cannot wait for the tasks it wakes. Await the task before the scope ends, or cancel it.
    """
  }

  /// An advance from a task outside this scheduler's open scope.
  static func advancedFromOutsideTheScope(operation: String, site: FailureLocation) -> String {
    """
    \(operation) was called outside this scheduler's withVirtualTime scope \
    (open at \(site)), by a task that is not part of it (a task that outlived another \
    scope, or one started by code outside the test), so it cannot wait for the tasks it wakes. \
    Advance from the test body inside the scope.
    """
  }

  /// The test's own real wait inside a scope.
  static func testStartedARealWait(wait: String) -> String {
    """
    The test itself started \(wait) here (Task.sleep or a real clock's sleep). In a \
    virtual-time test, time passes only when the test moves it: a real wait only makes the test slower, \
    and what it sees depend on the machine. To let time pass, advance instead: await \
    TestScheduler.current.advance(by:) (scheduler.advance(by:) in withVirtualTime).
    """
  }

  /// Work of the scope resumed from outside it.
  static func workResumedFromOutside(description: String) -> String {
    """
    TestScheduler could not keep virtual time exact here: \(description). Work resumed \
    from outside the scope arrives at a moment that depends on real time, so what the test saw \
    after this line may change from run to run. Sleep on the scheduler (environment.scheduler, \
    environment.continuousClock) and replace real I/O with a test double.
    """
  }

  /// The test awaited tasks asleep until the end of virtual time; the scope cancelled them.
  static func cancelledSleepersUntilTheEnd(limit: String, count: Int, site: String, times: Int) -> String {
    let (tasks, more) = (sleepingTasks(count), moreTimes(times))
    let (them, each) = count == 1 ? ("that task", "its sleep") : ("those tasks", "each sleep")
    return """
      The test waited here, and for \(limit) of real time nothing in its scope ran while \(tasks) slept \
      until the end of virtual time (at \(site)), which never comes: no advance reaches it, so the test would \
      have waited for ever. The scope cancelled \(them) (\(each) threw CancellationError)\(more), and the test \
      went on. Cancel a task that sleeps until it is cancelled before the test awaits it.
      """
  }

  /// The test awaited tasks asleep on virtual time; the scope moved time itself.
  static func movedTimeForAWaitingTest(limit: String, count: Int, site: String, to: String, times: Int) -> String {
    let asleep = "\(sleepingTasks(count)) slept on virtual time until \(to) from the scope's start (at \(site))"
    let more = moreTimes(times)
    return """
      The test waited here, and for \(limit) of real time nothing in its scope ran while \(asleep). \
      Only the test moves a TestScheduler: waiting for that, it would have waited for ever, so \
      the scope moved time to \(to) itself\(more), and the test went on. Move time before the wait: \
      await scheduler.advance(by:) (or run()) first, then await the task. (Waiting for something outside the \
      scope instead, real I/O or a detached task, looks the same to the scope: keep that out of a virtual-time \
      test.)
      """
  }

  /// `a task`, or `3 tasks`.
  private static func sleepingTasks(_ count: Int) -> String {
    count == 1 ? "a task" : "\(count) tasks"
  }

  /// How many times more a stalled test was rescued, as a clause: empty for once.
  private static func moreTimes(_ times: Int) -> String {
    times == 1 ? "" : ", and \(times - 1) more \(times == 2 ? "time" : "times") as the wait went on"
  }

  /// Hooks of an open scope that another library replaced.
  static func replacedHooks(_ replaced: [String]) -> String {
    "TestScheduler could not keep virtual time exact here: \(VirtualTimeAvailability.replaced(replaced))."
  }

  /// A negative delay, counted as zero.
  static func negativeDelay(operation: String, delay: String) -> String {
    "\(operation) got a negative delay, \(delay), and counts it as zero. Pass .zero or more."
  }

  /// A negative advance.
  static func negativeAdvance(operation: String, duration: String) -> String {
    """
    \(operation) cannot move time backwards: got \(duration). Pass .zero or a positive duration.
    """
  }

  /// An advance to an instant already past.
  static func advanceToThePast(operation: String, instant: String, current: String) -> String {
    """
    \(operation) cannot move time backwards: asked for \(instant) after the start, \
    but \(current) has already passed. Pass an instant at or after `elapsed`.
    """
  }

  /// A `maxRuns` below 1.
  static func invalidMaxRuns(what: String, maxRuns: Int, kept: Int) -> String {
    """
    \(what) \(maxRuns), but maxRuns must be 1 or more: it is how many actions one advance or run may \
    run before it stops and reports the work still due as runaway. It stays \(kept). Pass 1 or more (Int.max \
    for no limit).
    """
  }

  /// An advance called while another runs work.
  static func nestedAdvance(operation: String, running: String, site: CallSite) -> String {
    """
    \(operation) was called while \(running) at \(site) is still \
    running work — from inside work it runs (a scheduled action, or a task it resumed), or from \
    another thread at the same time. Nested, it would run later work before the work that called \
    it has finished, so it does nothing. Let the outer call run that work: schedule it, or sleep \
    on the scheduler, instead of advancing from inside.
    """
  }

  /// An advance that resumed sleeping tasks it cannot wait for.
  static func unwaitedSleepers(
    operation: String,
    count: Int,
    since sites: [String],
    cannotWait: CannotWait
  ) -> String {
    let one = count == 1
    let tasks = one ? "a task" : "\(count) tasks"
    let since = sites.joined(separator: ", ")
    let cannotWait =
      switch cannotWait {
      case .outsideAScope: "outside withVirtualTime it cannot wait for"
      case .synchronousForm: "the synchronous form cannot wait for"
      }
    // The `await` form of the operation: `advanceSynchronously(by:)` → `advance(by:)`.
    let method = (operation.split(separator: ".", maxSplits: 1).last.map(String.init) ?? operation)
      .replacing("Synchronously", with: "")
    return """
      \(operation) resumed \(tasks) sleeping since \(since), but \(cannotWait) \
      \(one ? "it" : "them") to run: what \(one ? "it does" : "they do") next happens at a moment that depends \
      on real time, so a check after this line can flake. Call `await scheduler.\(method)` inside \
      `await scheduler.withVirtualTime { … }`, or mark the test `@Test(.virtualTime)` and advance \
      `TestScheduler.current`, the scope's own scheduler.
      """
  }

  /// An advance that resumed sleeping tasks running outside the scope's lanes.
  static func offLaneSleepers(operation: String, count: Int, sites: [String]) -> String {
    let one = count == 1
    return """
      \(operation) resumed \(one ? "a task" : "\(count) tasks") sleeping since \(sites.joined(separator: ", ")) \
      that \(one ? "runs" : "run") outside the scope — on an actor with its own executor, or under another task \
      executor — where the scope cannot count \(one ? "its" : "their") jobs, so it returned without waiting for \
      \(one ? "it" : "them"): a check after this line can flake. In tests, run such code on the default executors \
      (inject the executor), or await its result instead of advancing past it.
      """
  }

  /// Why a drive cannot wait for the sleeping tasks it resumes.
  enum CannotWait {
    /// An `await` form called outside any scope.
    case outsideAScope
    /// `advanceSynchronously` or `runSynchronously`.
    case synchronousForm
  }

  /// A drive stopped by `maxRuns`.
  static func runaway(operation: String, caller: CallSite, runs: Int, work: TimerQueue.Work, site: CallSite) -> String {
    let what =
      switch work {
      case .repeating(let interval, _): "a repeating timer (every \(interval.literal))"
      case .once: "work"
      case .sleep: "a sleeping task"
      }
    let synchronous = operation.contains("Synchronously")
    let (advance, run) = synchronous ? ("advanceSynchronously(by:)", "runSynchronously()") : ("advance(by:)", "run()")
    return """
      \(operation) at \(caller) stopped after \(runs) actions (maxRuns) with work still \
      due: \(what) scheduled at \(site) keeps running. Cancel it, \(advance) a bounded \
      window instead of \(run), or raise maxRuns.
      """
  }

  /// A second scope on a scheduler whose scope is open.
  static func scopeAlreadyOpen(site: FailureLocation) -> String {
    """
    withVirtualTime was called on a TestScheduler whose scope is already open, at \(site). One \
    scheduler drives one scope at a time: this operation runs inside the open one, and its leftover \
    work is checked when that one ends. Open one scope per test (or use a second TestScheduler for a \
    second scope).
    """
  }

  /// A suspended task that did not end once cancelled.
  static func didNotEndWhenCancelled(grace: String) -> String {
    """
    It was cancelled, and it did not end within \(grace): code that ignores \
    cancellation outlives the test.
    """
  }

  /// A task of the scope left suspended at its end.
  ///
  /// `startedHere`: reported at the line that started it (else at the scope); `stuckFor`: the
  /// grace it did not end within when cancelled, nil when it ended.
  static func taskLeftSuspended(scope: FailureLocation, startedHere: Bool, stuckFor grace: String?) -> String {
    let what = "\(sentenceNaming(scope: scope)) ended with a task started \(startedHere ? "here" : "in it")"
    let outcome = grace.map(didNotEndWhenCancelled(grace:)) ?? "It was cancelled, and ended."
    return """
      \(what) still suspended, waiting for something other than the scheduler: a stream that never \
      yields, a continuation never resumed, a task it awaits, a real sleep or I/O. \(outcome) Let the task \
      finish (or cancel it) before the scope ends; if the test means to leave it running, open the scope \
      with leftoverWork: .expected.
      """
  }

  /// What was left on the scheduler at a scope's end.
  enum Leftover {
    /// Sleeping tasks; `located`: at the line that awaited `environment.continuousClock`.
    case sleep(located: Bool)
    /// One-shot work.
    case work
    /// A repeating timer.
    case repeating(every: String)
  }

  /// Work left on the scheduler at the end of a scope: one piece of `leftover` per deadline (in
  /// order), reported at the line that scheduled them (`placed`), else at the scope.
  static func leftoverPending(
    scope: FailureLocation,
    _ leftover: Leftover,
    deadlines: [Duration],
    placed: Bool,
    now: String
  ) -> String {
    let count = deadlines.count
    // Due never: at the end of virtual time, where no advance reaches.
    let never = deadlines.allSatisfy { $0 >= TimerQueue.never }
    let (what, fix): (String, String)
    switch leftover {
    case .sleep(let located):
      let clock = located ? "here on environment.continuousClock" : placed ? "here" : "on environment.continuousClock"
      what = count == 1 ? "a task sleeping \(clock)" : "\(count) tasks sleeping \(clock)"
      fix =
        never
        ? "It got CancellationError. No advance reaches the end of virtual time: cancel the task before the scope ends"
        : "It got CancellationError. Advance time past the sleep before the scope ends, or cancel the task"
    case .work:
      let place = placed ? "here" : "inside the library"
      what = count == 1 ? "work scheduled \(place)" : "\(count) pieces of work scheduled \(place)"
      let (it, them) = count == 1 ? ("It was", "it") : ("They were", "them")
      fix =
        never
        ? "\(it) cancelled. No advance reaches the end of virtual time: cancel \(them) before the scope ends"
        : "\(it) cancelled. Advance time past \(them) (advance(by:), run()) before the scope ends, or cancel \(them)"
    case .repeating(let interval):
      what = "a repeating timer scheduled \(placed ? "here" : "inside the library") (every \(interval))"
      fix = "It was cancelled. Cancel the timer before the scope ends"
    }
    return """
      \(sentenceNaming(scope: scope)) ended with \(what) still pending (due \(due(deadlines)); virtual time was \
      \(now)). \(fix); if the test means to leave it, open the scope with leftoverWork: .expected.
      """
  }

  /// `at .seconds(1), .seconds(2)`: each deadline once, with how many are due there when more
  /// than one (`at .seconds(1) (5000 times)`), and `never` for the end of virtual time.
  private static func due(_ deadlines: [Duration]) -> String {
    var runs: [(deadline: Duration, count: Int)] = []
    for deadline in deadlines {
      if let last = runs.last, last.deadline == deadline {
        runs[runs.count - 1].count += 1
      } else {
        runs.append((deadline, 1))
      }
    }
    let atTimes = runs.filter { $0.deadline < TimerQueue.never }.map { run in
      run.count == 1 ? run.deadline.literal : "\(run.deadline.literal) (\(run.count) times)"
    }
    let never = runs.last.map { $0.deadline >= TimerQueue.never } == true ? "never (at the end of virtual time)" : nil
    let at = atTimes.isEmpty ? nil : "at " + atTimes.joined(separator: ", ")
    return [at, never].compactMap { $0 }.joined(separator: ", and ")
  }

  /// A scope whose tasks never all suspended after its operation returned.
  static func busyAtTheEnd(busyJobs: UInt64, interval: String, limit: String) -> String {
    """
    withVirtualTime found tasks of the scope still running after its operation returned, never all \
    suspending — a loop of Task.yield() (\(busyJobs) jobs or more in \(interval) of real \
    time), or a job that did not return for \(limit) (a task blocked on the scope's thread). They \
    were cancelled; the scope ends without waiting for them. Let every task suspend or end before the scope \
    ends: a loop that waits for something should sleep on the scheduler or await it.
    """
  }

  /// A scope opened inside another one.
  ///
  /// `fresh`: the scope's scheduler was made for it, so the closure gets the open scope's.
  static func nestedScope(outer: FailureLocation, fresh: Bool) -> String {
    let runs =
      fresh
      ? "It runs in the open scope, on its scheduler: the closure gets TestScheduler.current"
      : "It runs in the open scope, and this scheduler has no scope of its own: its advances cannot wait for the scope's tasks"
    return """
      A virtual-time scope was opened here inside another one, \(naming(scope: outer)): a test has one \
      scope, and a nested one would count the test's own work in both, so neither could wait for it. \
      \(runs). Open one scope per test: remove this one (or the outer one), and advance the scheduler of the \
      one that is left (TestScheduler.current).
      """
  }

  /// How a report names the scope placed at `scope`: `withVirtualTime at Module/File.swift:12`,
  /// or, for the scope `@Test(.virtualTime)` opens (placed at the test's declaration, not at a
  /// call), `the test's virtual-time scope (@Test(.virtualTime))`: never an API the test did not
  /// call.
  static func naming(scope: FailureLocation) -> String {
    scope.callSite == nil ? "the test's virtual-time scope (@Test(.virtualTime))" : "withVirtualTime at \(scope)"
  }

  /// ``naming(scope:)`` at the start of a sentence (an API's name keeps its case).
  static func sentenceNaming(scope: FailureLocation) -> String {
    scope.callSite == nil ? "The test's virtual-time scope (@Test(.virtualTime))" : naming(scope: scope)
  }

  /// A task of a scope asleep on another scheduler with no scope open.
  static func sleepOnASchedulerWithNoScope() -> String {
    """
    A task of a virtual-time scope sleeps here on another TestScheduler, one with no scope open: \
    advancing the scope's scheduler never wakes it. Sleep on the scope's scheduler: one scheduler per test, \
    shared by every environment it builds (read Environment.current inside the scope, or make the \
    environment with Environment.test(scheduler:)). An environment set inside the scope \
    (withEnvironment(.test()) within withVirtualTime) brings a scheduler of its own: nest them the other way, \
    withEnvironment(.test()) { await withVirtualTime { … } }, and the scope puts that environment on its \
    scheduler.
    """
  }

  /// The test's own sleep stranded the scope; the scope moved time.
  static func strandedTest(deadline: String) -> String {
    """
    The test itself waited on virtual time, until \(deadline) from the scope's start (a sleep, or a \
    network stub's latency, asked for at this line or on a clock made here), and nothing else in its scope was \
    going to move time: only the test advances a TestScheduler, and every task of the scope was waiting too. Without help it would have waited for ever; the \
    scope moved time to \(deadline) itself, so the test goes on. Start what waits in a task of its own \
    (let loading = Task { await model.load() }), move time (await scheduler.advance(by:), or run()), then \
    await the task.
    """
  }

  /// The test's own sleep until the end of virtual time, which no advance reaches.
  static func strandedTestUntilTheEnd(end: String) -> String {
    """
    The test itself waited on virtual time until its end, \(end) from the scope's start (a sleep asked \
    for at this line or on a clock made here), which no advance reaches, and nothing else in its scope was \
    going to move time. Without help it would have waited for ever; its sleep threw CancellationError \
    instead, and time stayed where it was. Sleep for a duration an advance can reach, or start what sleeps \
    until it is cancelled in a task of its own, and cancel it.
    """
  }

  /// A sleep outside any scope on a scheduler nothing advances.
  static func unattendedSleep(limit: String) -> String {
    """
    A task slept for \(limit) of real time on a TestScheduler that nothing advanced, outside any \
    virtual-time scope — here, or on the clock of the environment made here — so nothing would ever wake it; it \
    was woken with CancellationError. Run the code in a \
    virtual-time scope — @Test(.virtualTime), or withVirtualTime { scheduler in … } — and advance its scheduler: \
    an environment made outside a scope (Environment.test(), or withEnvironment({ … }) in a test) has a scheduler \
    that only a scope, or an advance of your own, moves.
    """
  }

  /// A sleep of the scope from a thread outside it.
  static func offLaneSleep() -> String {
    """
    A task of the virtual-time scope sleeps here from a thread outside the scope — on an actor with its \
    own executor (a SerialExecutor of its own, such as a database actor on a DispatchQueue), or under another \
    task executor — where the scope cannot count its jobs: an advance cannot tell when it gets here, nor wait \
    for it after waking it, so what the test sees can depend on timing. In tests, run such code on the default \
    executors (inject the executor), or await its result instead of advancing past it.
    """
  }

  /// A task of the scope that ran on a thread outside it (an escape).
  static func ranOutsideTheScope() -> String {
    """
    a task of the scope ran on a thread outside it (inside an actor that code outside the \
    scope was holding, on an actor with its own executor, or under another task executor), \
    where it is not counted
    """
  }

  /// A task of the scope resumed from outside it (an escape).
  static func resumedFromOutside() -> String {
    """
    a task of the scope was resumed from outside it (by a Task.yield() inside an actor, \
    an actor with its own executor, a real Task.sleep, I/O, a continuation resumed on \
    another thread or queue, or a task that is not part of the scope)
    """
  }

  /// The lane taken over while freeing task results.
  static func slowResultDeinit(duration: String) -> String {
    """
    freeing the results of tasks the scope started, once they had ended, took more than \
    \(duration) (a result's deinit that blocks, or waits for another task); the \
    scope's other tasks went on on a new thread meanwhile, so they no longer run one at a \
    time. A deinit should not wait: start a task for what it must do
    """
  }

  /// The lane taken over from a job that blocked it.
  static func blockedLane(duration: String) -> String {
    """
    a task of the scope blocked the scope's thread for more than \(duration) (a semaphore, \
    a lock held across an await, DispatchQueue.sync onto work of the scope, or a real \
    Thread.sleep); the scope's other tasks went on on a new thread meanwhile, so they no \
    longer run one at a time. Await instead of blocking: an AsyncStream, a continuation, or \
    the scheduler's sleep
    """
  }

  /// The lane taken over from a job that never suspended.
  static func busyJob(duration: String) -> String {
    """
    a job of the scope ran for more than \(duration) without suspending (a busy loop \
    waiting for another task?); the scope's other tasks went on on a new thread meanwhile, \
    so they no longer run one at a time. Await what the loop waits for instead
    """
  }

  /// A task not of the scope that the scope resumed (an escape).
  static func resumedATaskNotOfTheScope() -> String {
    """
    the scope resumed a task that is not part of it (one started before the scope opened: by \
    another test running in parallel, or left over from an earlier scope); it runs outside the \
    scope, which does not wait for it
    """
  }

  /// A real wait started by a task of the scope (an escape).
  /// A real wait, as reports name it: `a real, wall-clock wait of about .milliseconds(200) on
  /// ContinuousClock` (always in milliseconds, however short or round: a measured wait, not an exact
  /// duration).
  static func realWait(milliseconds: Int?, on clock: String) -> String {
    let length = milliseconds.map { " of about .milliseconds(\($0))" } ?? ""
    return "a real, wall-clock wait\(length) on \(clock)"
  }

  static func realSleep(wait: String) -> String {
    """
    a task of the scope started \(wait) (Task.sleep or a real clock's sleep) instead of sleeping on the \
    TestScheduler
    """
  }

  /// A repeat interval of zero or less.
  static func nonPositiveInterval(operation: String, interval: String) -> String {
    """
    \(operation) needs a positive interval: got \(interval). Repeating at one instant would \
    never end, so the work runs once. Pass an interval greater than zero.
    """
  }

  /// `assertNoPendingWork` failing.
  static func pendingWork(leftovers: [TestScheduler.PendingWork], elapsed: String) -> String {
    """
    TestScheduler has \(leftovers.count == 1 ? "1 piece" : "\(leftovers.count) pieces") of work pending at \
    \(elapsed), expected none:\(renderList(leftovers, \.description))
    Run \(leftovers.count == 1 ? "it" : "them") with advance(by:) or run() before this line, or cancel \
    \(leftovers.count == 1 ? "it" : "them").
    """
  }
}
