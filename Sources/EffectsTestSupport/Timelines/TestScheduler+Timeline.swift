import Effects

extension TestScheduler {

  /// Schedules each event of `timeline` at its instant, to be handed to `emit`; reports what it
  /// had to change (see ``sequence(playing:fileID:filePath:line:column:)->AsyncStream<Element>``).
  func play<Element: Sendable, Failure: Sendable>(
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
