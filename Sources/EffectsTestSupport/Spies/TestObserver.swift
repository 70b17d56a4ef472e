import Effects

/// Records what a stream of values did — each value, and whether it completed or failed — so a test
/// can assert on it afterwards.
///
/// Feed it from callbacks (``send(_:)``, ``complete()``, ``fail(_:)``), or let it consume any
/// `AsyncSequence` with ``observe(_:fileID:filePath:line:column:)``:
///
/// ```swift
/// @Test func searchPublishesResultsThenFinishes() async {
///   let results = TestObserver<[String], any Error>()
///   await results.observe(model.search("piz"))
///
///   results.assertValues([[], ["pizza"]])
///   results.assertDidComplete()
/// }
///
/// @Test func theProgressCallbackReportsEachStep() {
///   let progress = TestObserver<Double, Never>()
///   uploader.upload(file, onProgress: progress.send, onFinish: progress.complete)
///
///   progress.assertValues([0.5, 1.0])
///   progress.assertDidComplete()
/// }
/// ```
///
/// Completion and failure are separate outcomes: a sequence that throws has failed, not
/// completed. Values that arrive after either are still recorded. An observer is a reference type,
/// `Sendable` when its values are, and may be fed from many tasks.
public final class TestObserver<Value, Failure: Error> {
  /// One event, with the virtual instant it was received at (nil: outside any virtual-time scope).
  struct Recorded {
    var event: Event
    var instant: Duration?
  }

  enum Event {
    case value(Value)
    case finished
    case failed(Failure)
  }

  struct State {
    var recorded: [Recorded] = []
    /// The task ``init(observing:fileID:filePath:line:column:)`` started, and whether it is
    /// still consuming.
    var observing: Task<Void, Never>?
    var consuming = false
    /// Set by ``cancel()``: nothing more is recorded.
    var stopped = false

    var values: [Value] {
      recorded.compactMap { recorded in
        guard case .value(let value) = recorded.event else { return nil }
        return value
      }
    }

    var didComplete: Bool {
      recorded.contains { if case .finished = $0.event { true } else { false } }
    }

    var failure: Failure? {
      recorded.lazy.compactMap { recorded -> Failure? in
        guard case .failed(let failure) = recorded.event else { return nil }
        return failure
      }.last
    }
  }

  let state = Locked(State())
  /// The scheduler whose virtual time the observer's events are measured on: the scope's it was
  /// made in, if any.
  let scheduler: TestScheduler?

  /// Creates an observer that has seen nothing. Made inside a virtual-time scope, it records the
  /// instant of each event on the scope's scheduler, for ``assertTimeline(_:fileID:filePath:line:column:)-(Timeline<Value,Failure>,_,_,_,_)``.
  public init() {
    scheduler = TestScheduler.scoped
  }

  /// Every value received, oldest first.
  public var values: [Value] {
    state.withLock { $0.values }
  }

  /// The latest value received, or `nil` when there is none.
  public var lastValue: Value? {
    values.last
  }

  /// Whether ``complete()`` was called (or an observed sequence ended without throwing).
  public var didComplete: Bool {
    state.withLock { $0.didComplete }
  }

  /// The error the stream failed with, if it failed.
  public var failure: Failure? {
    state.withLock { $0.failure }
  }

  /// Everything received, each event at the virtual instant it was received (the scheduler's
  /// ``TestScheduler/elapsed`` then). An event received outside any virtual-time scope has no
  /// instant, and is listed at `.zero`.
  ///
  /// ```swift
  /// #expect(observer.timeline.values == ["piz"])
  /// ```
  public var timeline: Timeline<Value, Failure> {
    Timeline(state.withLock { $0.recorded.map { $0.timelineEvent } })
  }

  /// Forgets every value, the completion and the failure: the observer is as new. An observation
  /// started by ``init(observing:fileID:filePath:line:column:)`` goes on.
  ///
  /// ```swift
  /// observer.clear()
  /// model.reload()
  /// observer.assertValues([.loading, .loaded])
  /// ```
  public func clear() {
    let removed = state.withLock { state in
      defer { state.recorded = [] }
      return state.recorded
    }
    // Dropped once unlocked: a value's `deinit` may use this observer.
    withExtendedLifetime(removed) {}
  }

  /// Records a value. Pass it as a callback: `onValue: observer.send`.
  public func send(_ value: Value) {
    record(.value(value))
  }

  /// Records that the stream finished normally.
  public func complete() {
    record(.finished)
  }

  /// Records that the stream failed with `error`.
  public func fail(_ error: Failure) {
    record(.failed(error))
  }

  private func record(_ event: Event) {
    let instant = (scheduler ?? TestScheduler.scoped)?.elapsed
    state.withLock { state in
      guard !state.stopped else { return }
      state.recorded.append(Recorded(event: event, instant: instant))
    }
  }

  /// Consumes `sequence` to its end: each element is sent, then the observer completes — or, when
  /// the sequence throws, fails with the error.
  ///
  /// ```swift
  /// let observer = TestObserver<Int, any Error>()
  /// await observer.observe(counter.values)
  /// observer.assertValues([1, 2, 3])
  /// ```
  ///
  /// It returns when the sequence ends, so observe a sequence that finishes (or run it in a task
  /// you cancel). An error that is not a `Failure` (any error, when `Failure` is `Never`) is
  /// reported at this line, and nothing is recorded for it.
  public func observe<S: AsyncSequence>(
    _ sequence: S,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where S.Element == Value {
    await consume(sequence, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Records what `sequence` does; nothing once the consuming task is cancelled (by ``cancel()``,
  /// or the end of the scope), not even the end that cancellation makes a sequence return.
  func consume<S: AsyncSequence>(_ sequence: S, at callSite: CallSite) async where S.Element == Value {
    do {
      for try await value in sequence {
        send(value)
      }
      if !Task.isCancelled { complete() }
    } catch let error as Failure {
      if !Task.isCancelled || !(error is CancellationError) { fail(error) }
    } catch {
      if Task.isCancelled, error is CancellationError { return }
      reportIssue(
        """
        TestObserver<\(Value.self), \(Failure.self)> cannot record what the observed \(S.self) threw, \
        \(describe(error)), as a failure: it is not a \(Failure.self). Declare the observer with Failure = any Error \
        (or the sequence's error type).
        """,
        kind: .misuse,
        at: callSite
      )
    }
  }
}

extension TestObserver {
  /// Stops observing the sequence given to ``init(observing:fileID:filePath:line:column:)``: its
  /// task is cancelled, and nothing more is recorded, not even an end. What was recorded stays.
  ///
  /// ```swift
  /// let ticks = TestObserver(observing: timer.ticks)
  /// await scheduler.advance(by: .seconds(3))
  /// ticks.cancel()   // the timer never ends
  /// ```
  public func cancel() {
    state.withLock { state in
      state.stopped = true
      return state.observing
    }?.cancel()
  }
}

extension TestObserver where Value: Sendable, Failure == any Error {
  /// Creates an observer that starts consuming `sequence` now, in a task of its own, and records
  /// each value and its end at the virtual instant it receives them: the recorder of a timeline.
  ///
  /// ```swift
  /// @Test(.virtualTime) func resultsFollowTheQuery() async {
  ///   let model = SearchModel()
  ///   let results = TestObserver(observing: model.results)
  ///   model.type("piz")
  ///   await TestScheduler.current.advance(by: .milliseconds(300))
  ///   results.assertTimeline([.value(["pizza"], at: .milliseconds(300))])
  /// }
  /// ```
  ///
  /// Make it inside a virtual-time scope (`@Test(.virtualTime)`, `withVirtualTime`): the task is
  /// then the scope's, so an `await advance` waits for it to record what it was handed, and the
  /// instants are the scope's. A sequence that never ends keeps the task waiting: call
  /// ``cancel()`` before the scope ends, or the scope reports the task, at this line, as work
  /// left running.
  ///
  /// The observer records a failure of any error, whatever the sequence throws (a sequence that
  /// never throws just never records one), so its type needs no naming:
  /// `TestObserver(observing: model.results)` is a `TestObserver<[String], any Error>`.
  public convenience init<S: AsyncSequence & SendableMetatype>(
    observing sequence: sending S,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where S.Element == Value {
    self.init()
    let callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    state.withLock { $0.consuming = true }
    let task = Task { [self] in
      await consume(sequence, at: callSite)
      state.withLock { $0.consuming = false }
    }
    state.withLock { $0.observing = task }
    scheduler?.whenScopeEnds { [weak self] scope in
      self?.stopAtScopeEnd(scope, madeAt: callSite) ?? false
    }
  }

  /// Reports the observer still consuming when its scope ends, at the line that made it, and
  /// cancels its task; false when it had finished.
  private func stopAtScopeEnd(_ scope: FailureLocation, madeAt callSite: CallSite) -> Bool {
    let (consuming, task, count) = state.withLock { state in
      // Cancelled by the test already: a task that still runs ignores cancellation, which the
      // scope reports as such.
      (state.consuming && !state.stopped, state.observing, state.values.count)
    }
    guard consuming, let task else { return false }
    reportIssue(
      """
      \(observerName) made here was still observing its sequence when \(VirtualTimeWording.naming(scope: scope)) ended, after \
      \(counted(count, "value")) and no end. It was cancelled. Call cancel() once the test has seen what it checks (a \
      sequence that never ends: a timer, a stream of notifications), or let the sequence end before the scope does; if \
      the test means to leave it running, open the scope with leftoverWork: .expected.
      """,
      kind: .leftoverWork,
      at: callSite
    )
    state.withLock { $0.stopped = true }
    task.cancel()
    return true
  }
}

extension TestObserver.Recorded {
  /// The event as a timeline lists it (at `.zero` when it has no instant).
  var timelineEvent: Timeline<Value, Failure>.Event {
    switch event {
    case .value(let value): .value(value, at: instant ?? .zero)
    case .finished: .finished(at: instant ?? .zero)
    case .failed(let failure): .failed(failure, at: instant ?? .zero)
    }
  }
}

extension TestObserver: Sendable where Value: Sendable {}
