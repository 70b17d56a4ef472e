import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Testing

private struct Offline: Error, Equatable {}

/// Timelines: a sequence played on the scheduler, recorded by a `TestObserver` with the instant of
/// each event, and checked whole.
@Suite struct TimelineTests {
  private static let file = "EffectsTestSupportTests/TimelineTests.swift"

  // MARK: Playing and recording

  @Test(.virtualTime) func aPlayedTimelineIsRecordedAsPlayed() async {
    let scheduler = TestScheduler.current
    let timeline: Timeline<String, Never> = [
      .value("a", at: .zero),
      .value("b", at: .milliseconds(30)),
      .value("c", at: .milliseconds(30)),
      .finished(at: .milliseconds(100)),
    ]
    let observer = TestObserver(observing: scheduler.sequence(playing: timeline))
    await scheduler.advance(by: .milliseconds(100))
    observer.assertTimeline(timeline)
    #expect(observer.values == ["a", "b", "c"])
    #expect(observer.didComplete)
  }

  /// Each event is recorded when the consumer receives it: work between the source and the
  /// observer (a sleep on the scope's clock) shows in the instants.
  @Test(.virtualTime) func theInstantIsWhenTheConsumerReceivedIt() async {
    let scheduler = TestScheduler.current
    let clock = Environment.current.continuousClock
    let played = scheduler.sequence(playing: [
      .value(1, at: .zero), .value(2, at: .milliseconds(10)), .finished(at: .seconds(1)),
    ])
    let delayed = played.map { value in
      try? await clock.sleep(for: .milliseconds(5))
      return value * 10
    }
    let observer = TestObserver(observing: delayed)
    await scheduler.advance(by: .seconds(1))
    observer.assertTimeline([
      .value(10, at: .milliseconds(5)),
      .value(20, at: .milliseconds(15)),
      .finished(at: .seconds(1)),
    ])
  }

  @Test(.virtualTime) func aFailureIsPlayedAndRecordedAtItsInstant() async {
    let scheduler = TestScheduler.current
    let played = scheduler.sequence(playing: [.value(1, at: .zero), .failed(Offline(), at: .seconds(2))])
    let observer = TestObserver<Int, any Error>(observing: played)
    await scheduler.advance(by: .seconds(2))
    observer.assertTimeline([.value(1, at: .zero), .failed(Offline(), at: .seconds(2))])
    #expect(observer.failure as? Offline == Offline())
  }

  /// Callbacks are timed too, when the observer is made inside a scope.
  @Test(.virtualTime) func callbacksAreTimed() async {
    let scheduler = TestScheduler.current
    let observer = TestObserver<Int, Never>()
    _ = scheduler.schedule(after: .seconds(1)) { observer.send(1) }
    _ = scheduler.schedule(after: .seconds(3)) { observer.complete() }
    await scheduler.advance(by: .seconds(3))
    observer.assertTimeline([.value(1, at: .seconds(1)), .finished(at: .seconds(3))])
  }

  /// An expected timeline with no end checks the events so far, and that the sequence is open.
  @Test(.virtualTime) func aTimelineWithoutAnEndIsTheEventsSoFar() async {
    let scheduler = TestScheduler.current
    let observer = TestObserver(
      observing: scheduler.sequence(playing: [.value("a", at: .zero), .finished(at: .seconds(1))])
    )
    await scheduler.advance()
    observer.assertTimeline([.value("a", at: .zero)])
    await scheduler.advance(by: .seconds(1))
    observer.assertTimeline([.value("a", at: .zero), .finished(at: .seconds(1))])
  }

  @Test(.virtualTime) func cancellingStopsRecordingWithoutAnEnd() async {
    let scheduler = TestScheduler.current
    let observer = TestObserver(
      observing: scheduler.sequence(playing: [.value("a", at: .zero), .value("b", at: .seconds(2))])
    )
    await scheduler.advance(by: .seconds(1))
    observer.cancel()
    await scheduler.advance(by: .seconds(2))
    observer.assertTimeline([.value("a", at: .zero)])
    #expect(!observer.didComplete)
    #expect(scheduler.pending == [], "the playing stopped with its consumer")
  }

  // MARK: Diagrams

  @Test func aDiagramIsOneCharacterATick() {
    let timeline = Timeline<String, Never>(diagram: "a--b [cd]-'ef'|", tick: .milliseconds(10))
    #expect(
      timeline.description
        == #"["a" at .zero, "b" at .milliseconds(30), "c" at .milliseconds(40), "d" at .milliseconds(40), "ef" at .milliseconds(60), finished at .milliseconds(70)]"#
    )
  }

  @Test func aFailingDiagramEndsWithADiagramFailure() {
    let timeline = Timeline<String, any Error>(diagram: "ab^", tick: .seconds(1))
    #expect(timeline.description == #"["a" at .zero, "b" at .seconds(1), failed with DiagramFailure() at .seconds(2)]"#)
  }

  @Test func aDiagramThatCannotBeReadIsReportedAtItsLine() {
    let line = #line + 2
    let (timeline, issues) = withCapturedIssues {
      Timeline<String, Never>(diagram: "a^[b[c]|d 'e", tick: .milliseconds(1))
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          The timeline diagram "a^[b[c]|d 'e" cannot be read as written: '^' at character 2 is a failure, which a \
          Timeline<String, Never> cannot have, and was dropped (a diagram with '^' is a Timeline<String, any Error>: \
          write its type); '[' at character 5 opens a group inside a group; it was ignored; 'd' at character 9 comes after the end, and was dropped; the value 'e is not closed with a '; it \
          was dropped.
          """,
          line: line
        )
      ]
    )
    // The dropped '^' still takes its tick: the events after it stay where the diagram draws them.
    #expect(
      timeline.description
        == #"["a" at .zero, "b" at .milliseconds(2), "c" at .milliseconds(2), finished at .milliseconds(3)]"#
    )
  }

  @Test func aTickTooLongForTheDiagramIsReportedNotACrash() {
    let line = #line + 2
    let (timeline, issues) = withCapturedIssues {
      Timeline<String, Never>(diagram: "ab-[cd]e", tick: .seconds(Int64.max))
    }
    #expect(
      issues == [
        CapturedIssue(
          """
          The timeline diagram "ab-[cd]e" cannot be read as written: at character 7 the diagram reaches 3 × \
          .seconds(9223372036854775807), past the longest instant a timeline can hold (.seconds(9223372036854775807)); \
          that event and every one after it were dropped.
          """,
          line: line
        )
      ]
    )
    #expect(timeline.description == #"["a" at .zero, "b" at .seconds(9223372036854775807)]"#)
  }

  @Test func aNegativeTickTooLongForTheDiagramIsReportedNotACrash() {
    let (timeline, issues) = withCapturedIssues {
      Timeline<String, Never>(diagram: "abc", tick: .seconds(Int64.min))
    }
    #expect(
      issues.map(\.message).first?.contains("at character 2 the diagram reaches 1 × .seconds(-9223372036854775808)")
        == true
    )
    #expect(issues.map(\.message).first?.contains("a tick must be longer than zero") == true)
    #expect(timeline.events.count == 1)
  }

  /// After `cancel()`, nothing more is recorded: not the values a stream had already buffered.
  @Test(.virtualTime) func afterCancelNothingMoreIsRecorded() async {
    let (stream, input) = AsyncStream<Int>.makeStream()
    let observer = TestObserver(observing: stream)
    input.yield(1)
    await TestScheduler.current.advance()
    input.yield(2)
    input.yield(3)
    observer.cancel()
    await TestScheduler.current.advance()
    #expect(observer.values == [1])
    input.finish()
  }

  /// Failures match when they are of one `Equatable` type and equal, else when described alike —
  /// whichever side is expected.
  @Test(.virtualTime) func failuresMatchTheSameWayWhicheverSideIsExpected() async {
    struct Plain: Error, CustomStringConvertible { var description: String { "E" } }
    struct Compared: Error, Equatable, CustomStringConvertible { var description: String { "E" } }
    let scheduler = TestScheduler.current
    let observer = TestObserver<Int, any Error>(observing: scheduler.sequence(playing: [.failed(Plain(), at: .zero)]))
    await scheduler.advance()
    observer.assertTimeline([.failed(Plain(), at: .zero)])
    let issues = withCapturedIssues { observer.assertTimeline([.failed(Compared(), at: .zero)]) }.issues
    #expect(issues.count == 1, "a Plain failure is not a Compared one, though both read \"E\"")
  }

  // MARK: Mistakes

  @Test(.virtualTime) func aTimelineThatDiffersIsReportedWithBothInstants() async {
    let scheduler = TestScheduler.current
    let observer = TestObserver(
      observing: scheduler.sequence(playing: [.value("a", at: .zero), .value("b", at: .milliseconds(300))])
    )
    await scheduler.advance(by: .milliseconds(300))
    let line = #line + 2
    let issues = withCapturedIssues {
      observer.assertTimeline([.value("a", at: .zero), .value("b", at: .milliseconds(200))])
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          TestObserver<String, Error> events differ: got 2, expected 2; first difference at index 1:
              [0] "a" at .zero
            ~ [1] "b" at .milliseconds(200)   (expected)
              [1] "b" at .milliseconds(300)   (actual)
          The expected timeline has no end: it checks the events so far, and that the sequence has not ended yet.
          """,
          line: line
        )
      ]
    )
    observer.cancel()
  }

  @Test func anObserverFedOutsideAnyScopeCannotCheckATimeline() {
    let observer = TestObserver<Int, Never>()
    observer.send(1)
    let line = #line + 1
    let issues = withCapturedIssues { observer.assertTimeline([.value(1, at: .zero)]) }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          TestObserver<Int, Never> cannot check a timeline: it received 1 event outside any virtual-time scope, which \
          have no virtual instant. Make the observer inside the scope — in a test marked @Test(.virtualTime), or inside \
          withVirtualTime { … } — so each event is timed on the scope's scheduler; or check the values alone, with \
          assertValues(_:).
          """,
          line: line
        )
      ]
    )
  }

  @Test func aTimelineItCannotPlayAsWrittenIsReportedAndPlayedAsWellAsItCanBe() async {
    let scheduler = TestScheduler()
    await scheduler.withVirtualTime {
      await scheduler.advance(by: .seconds(1))
      let line = #line + 2
      let (played, issues) = withCapturedIssues {
        scheduler.sequence(playing: [
          .value(1, at: .zero),
          .value(2, at: .seconds(3)),
          .value(3, at: .seconds(2)),
          .finished(at: .seconds(4)),
          .value(4, at: .seconds(5)),
        ])
      }
      #expect(
        issues == [
          CapturedIssue(
            """
            TestScheduler.sequence(playing:) got a timeline it cannot play as written: event [0], 1 at .zero, is \
            before the current instant, .seconds(1), so it is played at the next advance; event [2], 3 at \
            .seconds(2), is earlier than the event before it, so it is played at .seconds(3); event [4], 4 at \
            .seconds(5), comes after the end (finished at .seconds(4)), so it is dropped. List the events in the order \
            they happen, at .seconds(1) or later (the scheduler's elapsed time now), with the end last.
            """,
            line: line
          )
        ]
      )
      let observer = TestObserver(observing: played)
      await scheduler.advance(by: .seconds(4))
      observer.assertTimeline([
        .value(1, at: .seconds(1)),
        .value(2, at: .seconds(3)),
        .value(3, at: .seconds(3)),
        .finished(at: .seconds(4)),
      ])
    }
  }

  /// An observer still consuming when the scope ends reports itself at the line that made it,
  /// naming the fix, and stops.
  @Test func anObserverStillConsumingAtTheEndIsReportedWhereItWasMade() async {
    let scheduler = TestScheduler()
    let (stream, input) = AsyncStream<Int>.makeStream()
    let scopeLine = #line + 2
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        let observer = TestObserver(observing: stream)
        input.yield(1)
        await scheduler.advance()
        observer.assertValues([1])
      }
    }.issues
    #expect(issues == [Self.stillObserving(scopeLine: scopeLine, values: "1 value", line: scopeLine + 1)])
    input.finish()
  }

  /// A sequence whose work sleeps on the scope's clock (a timer, a debounce) is one mistake, not a
  /// sleeper left behind: the observer reports itself, and its cancellation ends the sleep.
  @Test func anObserverOfASequenceThatSleepsIsReportedOnceWhereItWasMade() async {
    let scheduler = TestScheduler()
    let scopeLine = #line + 2
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        let clock = Environment.current.continuousClock
        let played = scheduler.sequence(playing: [.value(1, at: .zero), .value(2, at: .seconds(1))])
        let slow = played.map { value in
          try? await clock.sleep(for: .seconds(10))
          return value
        }
        _ = TestObserver(observing: slow)
        await scheduler.advance(by: .seconds(2))
      }
    }.issues
    #expect(issues == [Self.stillObserving(scopeLine: scopeLine, values: "0 values", line: scopeLine + 7)])
    #expect(scheduler.pending == [])
  }

  /// In the scope of `@Test(.virtualTime)`, the report names that scope, not a `withVirtualTime`.
  @Test func anObserverStillConsumingAtTheEndOfATraitScopeNamesTheTraitsScope() async throws {
    let test = try #require(Test.current)
    let line = #line + 4
    let issues = try await withCapturedIssues {
      try await VirtualTimeTrait.virtualTime.provideScope(for: test, testCase: Test.Case.current) {
        let (stream, input) = AsyncStream<Int>.makeStream()
        _ = TestObserver(observing: stream)
        await TestScheduler.current.advance()
        _ = input
      }
    }.issues
    #expect(issues.map(\.line) == [line])
    #expect(
      issues.first?.message.contains(
        """
        made here was still observing its sequence when the test's virtual-time scope (@Test(.virtualTime)) \
        ended, after 0 values and no end.
        """
      ) == true,
      "\(issues)"
    )
  }

  private static func stillObserving(scopeLine: Int, values: String, line: Int) -> CapturedIssue {
    CapturedIssue(
      """
      TestObserver<Int, Error> made here was still observing its sequence when withVirtualTime at \
      \(file):\(scopeLine) ended, after \(values) and no end. It was cancelled. Call cancel() once the test has seen \
      what it checks (a sequence that never ends: a timer, a stream of notifications), or let the sequence end \
      before the scope does; if the test means to leave it running, open the scope with leftoverWork: .expected.
      """,
      line: line
    )
  }
}
