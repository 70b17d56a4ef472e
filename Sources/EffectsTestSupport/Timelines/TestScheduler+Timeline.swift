import Effects

extension TestScheduler {
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

  /// Schedules each event of `timeline` at its instant, to be handed to `emit`; reports what it
  /// had to change (see ``sequence(playing:fileID:filePath:line:column:)->AsyncStream<Element>``).
  private func play<Element: Sendable, Failure: Sendable>(
    _ timeline: Timeline<Element, Failure>,
    at callSite: CallSite,
    emit: @escaping @Sendable (Timeline<Element, Failure>.Event) -> Void
  ) -> [ScheduledWork] {
    let now = elapsed
    var problems = ProblemList()
    var previous = now
    var playable: [(instant: Duration, event: Timeline<Element, Failure>.Event)] = []
    for (index, event) in timeline.events.enumerated() {
      if let end = playable.last?.event, end.isEnd {
        problems.append(
          "event [\(index)], \(ReportBudget.clipped(event.description)), comes after the end (\(ReportBudget.clipped(end.description))), so it is dropped"
        )
        continue
      }
      var instant = event.instant
      if instant < now {
        problems.append(
          "event [\(index)], \(ReportBudget.clipped(event.description)), is before the current instant, \(now.spelled), so it is played at the next advance"
        )
        instant = now
      } else if instant < previous {
        problems.append(
          "event [\(index)], \(ReportBudget.clipped(event.description)), is earlier than the event before it, so it is played at \(previous.spelled)"
        )
        instant = previous
      }
      previous = instant
      playable.append((instant, event))
    }
    if !problems.isEmpty {
      reportIssue(
        """
        TestScheduler.sequence(playing:) got a timeline it cannot play as written: \
        \(problems.joined). List the events in the order they happen, at \(now.spelled) or later \
        (the scheduler's elapsed time now), with the end last.
        """,
        kind: .invalidTimeline,
        at: callSite
      )
    }
    let handles = state.withLock { state in
      playable.map { instant, event in
        state.queue.insert(deadline: instant, callSite: callSite, work: .once { emit(event) })
      }
    }
    return handles.map(cancellation(of:))
  }
}
