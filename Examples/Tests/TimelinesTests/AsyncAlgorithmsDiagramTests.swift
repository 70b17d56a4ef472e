import AsyncAlgorithms
import Effects
import EffectsTestSupport
import Foundation
import Testing

/// swift-async-algorithms 1.1.4 specifies its time-based operators with diagrams, checked by a
/// validator internal to its own test suite (`Tests/AsyncAlgorithmsTests`). The same scenarios,
/// here, on this library's public API: each input diagram played on a `TestScheduler`, the
/// operator run on the scope's clock, its output recorded by a `TestObserver`, and the timeline
/// checked against the expected diagram — one tick of theirs is one millisecond of virtual time.
/// Each scenario is replayed `replays` times (500 by default); every replay must give the same
/// timeline.
///
/// Their diagrams are used as they are written, with one translation for all: their validator
/// counts ticks from 1 (each symbol first advances its clock, then happens), a `Timeline` diagram
/// from 0, so a `-` is put in front of every diagram. It matters only where the operator measures
/// time from the start of the clock (the timer, chunks by time). Where a diagram here is not the
/// one in their test, a comment says what differs and why: every such difference is their
/// validator's notation, not the operator, and not this library.
@Suite struct AsyncAlgorithmsDiagramTests {
  @Test(arguments: DiagramScenario.all)
  func scenario(_ scenario: DiagramScenario) async {
    let expected = Timeline<String, any Error>(diagram: "-" + scenario.output, tick: DiagramScenario.tick)
    // The first replay asserts, with a diff if it differs; every replay is compared with it.
    let first = await scenario.replay(asserting: expected)
    var deviations: [String] = []
    for _ in 1..<replays {
      let timeline = await scenario.replay()
      if timeline.description != first.description { deviations.append(timeline.description) }
    }
    #expect(
      deviations.isEmpty,
      "\(deviations.count) of \(replays) replays differed; the first: \(deviations.first ?? "")"
    )
  }
}

/// One scenario of theirs: the input diagrams, the operator, and the expected output diagram.
struct DiagramScenario: Sendable, CustomTestStringConvertible {
  /// Their test, `TestDebounce.test_delayingValues`.
  let name: String
  let inputs: [String]
  /// Makes the observer of the operator's output, from the played inputs and the scope's clock.
  let observe: @Sendable ([AsyncThrowingStream<String, any Error>], DurationClock) -> TestObserver<String, any Error>
  let output: String
  /// Where their diagram says `;`, the consumer stops before anything else happens at that step:
  /// the observer is cancelled once the scheduler has advanced to the step before.
  var cancelAt: Int? = nil

  /// One tick of their diagrams.
  static let tick = Duration.milliseconds(1)

  var testDescription: String { name }

  /// How far a replay advances: past the longest diagram.
  private var ticks: Int {
    (inputs + [output]).map(\.count).max() ?? 0
  }

  /// Plays the inputs in a scope of its own, and answers the timeline the observer recorded —
  /// asserting it is `expected`, when one is given.
  func replay(asserting expected: Timeline<String, any Error>? = nil) async -> Timeline<String, any Error> {
    await withVirtualTime { scheduler in
      let played = inputs.map { diagram in
        scheduler.sequence(playing: Timeline<String, any Error>(diagram: "-" + diagram, tick: Self.tick))
      }
      let observer = observe(played, Environment.current.continuousClock)
      if let cancelAt {
        await scheduler.advance(by: Self.tick * (cancelAt - 1))
        observer.cancel()
      }
      await scheduler.advance(by: Self.tick * (ticks + 10) - scheduler.elapsed)
      if let expected { observer.assertTimeline(expected) }
      return observer.timeline
    }
  }
}

/// Their `.steps(n)`: `n` ticks.
private func steps(_ count: Int) -> Duration {
  DiagramScenario.tick * count
}

/// Their `concatCharacters`: a chunk as one string.
private func concatenated(_ chunk: [String]) -> String {
  chunk.joined()
}

/// Their `sumCharacters`: the sum of a chunk's digits, as a string.
private func summed(_ chunk: [String]) -> String {
  "\(chunk.reduce(0) { $0 + (Int($1) ?? 0) })"
}

extension DiagramScenario {
  static let all: [DiagramScenario] = debounce + throttle + timer + merge + chunks

  static let debounce: [DiagramScenario] = [
    DiagramScenario(
      name: "TestDebounce.test_delayingValues",
      inputs: ["abcd----e---f-g----|"],
      observe: { inputs, clock in TestObserver(observing: inputs[0].debounce(for: steps(3), clock: clock)) },
      output: "------d----e-----g-|"
    ),
    DiagramScenario(
      name: "TestDebounce.test_delayingValues_dangling_last",
      inputs: ["abcd----e---f-g-|"],
      observe: { inputs, clock in TestObserver(observing: inputs[0].debounce(for: steps(3), clock: clock)) },
      output: "------d----e----[g|]"
    ),
    DiagramScenario(
      name: "TestDebounce.test_finishDoesntDebounce",
      inputs: ["a|"],
      observe: { inputs, clock in TestObserver(observing: inputs[0].debounce(for: steps(3), clock: clock)) },
      output: "-[a|]"
    ),
    DiagramScenario(
      name: "TestDebounce.test_throwDoesntDebounce",
      inputs: ["a^"],
      observe: { inputs, clock in TestObserver(observing: inputs[0].debounce(for: steps(3), clock: clock)) },
      output: "-^"
    ),
    DiagramScenario(
      name: "TestDebounce.test_noValues",
      inputs: ["----|"],
      observe: { inputs, clock in TestObserver(observing: inputs[0].debounce(for: steps(3), clock: clock)) },
      output: "----|"
    ),
  ]

  static func throttled(_ name: String, _ input: String, rate: Int, latest: Bool, _ output: String) -> DiagramScenario {
    DiagramScenario(
      name: "TestThrottle.\(name)",
      inputs: [input],
      observe: { inputs, clock in
        TestObserver(observing: inputs[0]._throttle(for: steps(rate), clock: clock, latest: latest))
      },
      output: output
    )
  }

  static let throttle: [DiagramScenario] = [
    throttled("test_rate_0", "abcdefghijk|", rate: 0, latest: true, "abcdefghijk|"),
    throttled("test_rate_0_leading_edge", "abcdefghijk|", rate: 0, latest: false, "abcdefghijk|"),
    throttled("test_rate_1", "abcdefghijk|", rate: 1, latest: true, "abcdefghijk|"),
    throttled("test_rate_1_leading_edge", "abcdefghijk|", rate: 1, latest: false, "abcdefghijk|"),
    throttled("test_rate_2", "abcdefghijk|", rate: 2, latest: true, "a-c-e-g-i-k|"),
    throttled("test_rate_2_leading_edge", "abcdefghijk|", rate: 2, latest: false, "a-b-d-f-h-j|"),
    throttled("test_rate_3", "abcdefghijk|", rate: 3, latest: true, "a--d--g--j--[k|]"),
    throttled("test_rate_3_leading_edge", "abcdefghijk|", rate: 3, latest: false, "a--b--e--h--[k|]"),
    // Their input is "abcdef^hijk|": their validator never reads past a failure, so "hijk|" is
    // never played. A `Timeline` reports events after the end as a mistake; they are left out.
    throttled("test_throwing", "abcdef^", rate: 2, latest: true, "a-c-e-^"),
    throttled("test_throwing_leading_edge", "abcdef^", rate: 2, latest: false, "a-b-d-^"),
    throttled("test_emission_2_rate_1", "-a-b-c-d-e-f-g-h-i-j-k-|", rate: 1, latest: true, "-a-b-c-d-e-f-g-h-i-j-k-|"),
    throttled("test_emission_2_rate_2", "-a-b-c-d-e-f-g-h-i-j-k-|", rate: 2, latest: true, "-a-b-c-d-e-f-g-h-i-j-k-|"),
    throttled("test_emission_3_rate_2", "--a--b--c--d--e--f--g|", rate: 2, latest: true, "--a--b--c--d--e--f--g|"),
    throttled("test_emission_2_rate_3", "-a-b-c-d-e-f-g-h-i-j-k-|", rate: 3, latest: true, "-a---c---e---g---i---k-|"),
    throttled("test_trailing_delay_without_latest", "abcdefghijkl|", rate: 3, latest: false, "a--b--e--h--[k|]"),
    throttled("test_trailing_delay_with_latest", "abcdefghijkl|", rate: 3, latest: true, "a--d--g--j--[l|]"),
  ]

  static func ticking(_ name: String, every interval: Int, _ output: String, cancelAt: Int) -> DiagramScenario {
    DiagramScenario(
      name: "TestTimer.\(name)",
      inputs: [],
      observe: { _, clock in
        TestObserver(observing: AsyncTimerSequence(interval: steps(interval), clock: clock).map { _ in "x" })
      },
      output: output,
      cancelAt: cancelAt
    )
  }

  // Their outputs end with "[;|]": the consumer is cancelled at step 8, and their validator
  // records the `nil` that cancellation makes the iterator return as a finish. An observer that is
  // cancelled records nothing more, not even an end: the outputs here stop at step 7.
  static let timer: [DiagramScenario] = [
    ticking("test_tick1", every: 1, "xxxxxxx", cancelAt: 8),
    ticking("test_tick2", every: 2, "-x-x-x-", cancelAt: 8),
    ticking("test_tick3", every: 3, "--x--x-", cancelAt: 8),
  ]

  static let merge: [DiagramScenario] = [
    // Their second input is "-b-d-f-h", with no end: their validator's input returns `nil` as
    // soon as its last event has been read. A `Timeline` without an end stays open, so the end is
    // written where theirs happens, with the last value.
    DiagramScenario(
      name: "TestMerge2.test_merge_makes_sequence_with_ordered_elements_when_sources_follow_a_timeline",
      inputs: ["a-c-e-g-|", "-b-d-f-[h|]"],
      observe: { inputs, _ in TestObserver(observing: AsyncAlgorithms.merge(inputs[0], inputs[1])) },
      output: "abcdefgh|"
    ),
    DiagramScenario(
      name: "TestMerge3.test_merge_makes_sequence_with_ordered_elements_when_sources_follow_a_timeline",
      inputs: ["a---e---|", "-b-d-f-h|", "--c---g-|"],
      observe: { inputs, _ in TestObserver(observing: AsyncAlgorithms.merge(inputs[0], inputs[1], inputs[2])) },
      output: "abcdefgh|"
    ),
  ]

  /// Their chunks by a signal: the first input, chunked at each value of the second.
  static func signalled(_ name: String, _ input: String, _ signal: String, _ output: String) -> DiagramScenario {
    DiagramScenario(
      name: "TestChunk.\(name)",
      inputs: [input, signal],
      observe: { inputs, _ in TestObserver(observing: inputs[0].chunked(by: inputs[1]).map(concatenated)) },
      output: output
    )
  }

  /// Their chunks by time: the input, chunked every `every` ticks of the clock.
  static func timed(_ name: String, _ input: String, every: Int, _ output: String) -> DiagramScenario {
    DiagramScenario(
      name: "TestChunk.\(name)",
      inputs: [input],
      observe: { inputs, clock in
        TestObserver(observing: inputs[0].chunked(by: .repeating(every: steps(every), clock: clock)).map(concatenated))
      },
      output: output
    )
  }

  static let chunks: [DiagramScenario] = [
    DiagramScenario(
      name: "TestChunk.test_count_one",
      inputs: ["ABCDE|"],
      observe: { inputs, _ in TestObserver(observing: inputs[0].chunks(ofCount: 1).map(concatenated)) },
      output: "ABCDE|"
    ),
    signalled(
      "test_signal_equalChunks",
      "ABC-    DEF-    GHI-     |",
      "---X    ---X    ---X    |",
      "---'ABC'---'DEF'---'GHI'|"
    ),
    signalled(
      "test_signal_unequalChunks",
      "AB-   A-ABCDEFGH-         |",
      "--X   -X--------X         |",
      "--'AB'-A--------'ABCDEFGH'|"
    ),
    signalled("test_signal_emptyChunks", "--1--|", "XX-XX|", "---1-|"),
    signalled("test_signal_error", "AB^", "---X|", "--^"),
    DiagramScenario(
      name: "TestChunk.test_signal_unsignaledTrailingChunk",
      inputs: ["111-111|", "---X---|"],
      observe: { inputs, _ in TestObserver(observing: inputs[0].chunked(by: inputs[1]).map(summed)) },
      output: "---3---[3|]"
    ),
    DiagramScenario(
      name: "TestChunk.test_signalAndCount_countAlwaysPrevails",
      inputs: ["AB   --A-B   -|", "--   X----   X|"],
      observe: { inputs, _ in TestObserver(observing: inputs[0].chunks(ofCount: 2, or: inputs[1]).map(concatenated)) },
      output: "-'AB'----'AB'-|"
    ),
    timed("test_time_equalChunks", "ABC-    DEF-    GHI-     |", every: 4, "---'ABC'---'DEF'---'GHI'|"),
    timed(
      "test_time_unequalChunks",
      "AB------    A------- ABCDEFG-         |",
      every: 8,
      "-------'AB' -------A -------'ABCDEFG'|"
    ),
    timed("test_time_emptyChunks", "-- 1- --|", every: 2, "-- -1 --|"),
  ]
}
