public import Effects

extension TestScheduler {
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
      """
      TestScheduler has \(leftovers.count == 1 ? "1 piece" : "\(leftovers.count) pieces") of work pending at \
      \(elapsed.literal), expected none:\(renderList(leftovers, \.description))
      Run \(leftovers.count == 1 ? "it" : "them") with advance(by:) or run() before this line, or cancel \
      \(leftovers.count == 1 ? "it" : "them").
      """,
      kind: .assertionFailed,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}
