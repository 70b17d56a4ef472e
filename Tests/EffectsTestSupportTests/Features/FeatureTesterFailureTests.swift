import Effects
import EffectsTestSupport
import Testing

/// Every way a `FeatureTester` test fails, captured: the exact text, at the exact line.
@MainActor
@Suite struct FeatureTesterFailureTests {
  static let item = Item(id: "42", title: "Blob")

  func loadTester(api: CatalogAPI, line: UInt = #line) -> FeatureTester<Load, LoadAction, LoadEffect> {
    let interactor = LoadInteractor(api: api)
    return FeatureTester(initialState: .idle, reducer: LoadReducer().reduce, line: line, perform: interactor.perform)
  }

  /// A tester whose `.load` has been sent and answered at 300 ms, its answer not yet received.
  func loadAnsweredAt300Milliseconds() async -> FeatureTester<Load, LoadAction, LoadEffect> {
    let api = CatalogAPI()
    api.fetches.stub(returning: Self.item)
    let tester = loadTester(api: api)
    await tester.send(.load) { $0 = .loading }
    tester.assertEffects([.fetch(id: "42", after: .zero)])
    await tester.advance(by: .milliseconds(300))
    return tester
  }

  func wordsTester(
    _ exhaustivity: FeatureTester<[String], WordAction, [String]>.Exhaustivity = .on
  )
    -> FeatureTester<[String], WordAction, [String]>
  {
    FeatureTester(initialState: [], reducer: appendWords, exhaustivity: exhaustivity) { effect, send in
      for word in effect { send(.append(word)) }
    }
  }

  // MARK: State

  @Test func aStateOtherThanExpectedIsShownAsTheLinesThatDiffer() async {
    var line = 0
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let api = CatalogAPI()
        api.fetches.stub(returning: Item(id: "42", title: "Blob", tags: ["new", "sale"]))
        let tester = loadTester(api: api)
        await tester.send(.load) { $0 = .loading }
        tester.assertEffects([.fetch(id: "42", after: .zero)])
        await tester.advance(by: .milliseconds(300))
        line = #line + 1
        await tester.receive(.answered(Item(id: "42", title: "Blob", tags: ["new", "sale"]))) {
          $0 = .loaded(Item(id: "42", title: "Blub", tags: ["new", "sale"]))
        }
        await tester.finish()
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          FeatureTester.receive(.answered(Item(id: "42", title: "Blob", tags: ["new", "sale"]))) changed the state \
          other than expected (+ actual, - expected):
              .loaded(
                Item(
                  id: "42"
            +     title: "Blob"
            -     title: "Blub"
                  tags: [
                    "new"
              …
          Make assert: describe the change the reducer makes, or fix the reducer.
          """,
          line: line
        )
      ]
    )
  }

  @Test func aStateChangeWithoutAssertIsReported() async {
    var line = 0
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let tester = FeatureTester(initialState: 0, reducer: reduceTimer, perform: performTimer)
        await tester.send(.start(ticks: 1))
        tester.assertEffects([.ticks(1, every: .seconds(1))])
        await tester.advance(by: .seconds(1))
        line = #line + 1
        await tester.receive(.tick)
        await tester.finish()
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          FeatureTester.receive(.tick) changed the state, expected no change (+ actual, - expected):
            + 1
            - 0
          Describe the change with assert: { $0 … }, or fix the reducer.
          """,
          line: line
        )
      ]
    )
  }

  @Test func sendReportsAWrongState() async {
    var line = 0
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let api = CatalogAPI()
        api.fetches.stub(returning: Self.item)
        let tester = loadTester(api: api)
        line = #line + 1
        await tester.send(.load) { $0 = .failed("offline") }
        tester.assertEffects([.fetch(id: "42", after: .zero)])
        await tester.advance(by: .milliseconds(300))
        await tester.receive(.answered(Self.item)) { $0 = .loaded(Self.item) }
        await tester.finish()
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          FeatureTester.send(.load) changed the state other than expected (+ actual, - expected):
            + .loading
            - .failed(
            -   "offline"
            - )
          Make assert: describe the change the reducer makes, or fix the reducer.
          """,
          line: line
        )
      ]
    )
  }

  // MARK: Effects

  @Test func assertEffectsShowsADiff() async {
    var line = 0
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let api = CatalogAPI()
        api.fetches.stub(returning: Self.item)
        let tester = loadTester(api: api)
        await tester.send(.load) { $0 = .loading }
        line = #line + 1
        tester.assertEffects([.fetch(id: "7", after: .zero)])
        await tester.advance(by: .milliseconds(300))
        await tester.receive(.answered(Self.item)) { $0 = .loaded(Self.item) }
        await tester.finish()
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          FeatureTester.assertEffects(_:) found other effects asked for by send(.load): got 1, expected 1; first \
          difference at index 0:
            ~ [0] .fetch(id: "7", after: .seconds(0))   (expected)
              [0] .fetch(id: "42", after: .seconds(0))   (actual)
          """,
          line: line
        )
      ]
    )
  }

  @Test func effectsNotAssertedAreReportedAtTheirStep() async {
    var lines: [Int] = []
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let api = CatalogAPI()
        api.fetches.stub(returning: Self.item)
        let tester = loadTester(api: api)
        lines.append(#line + 1)
        await tester.send(.load) { $0 = .loading }
        await tester.advance(by: .milliseconds(300))
        await tester.receive(.answered(Self.item)) { $0 = .loaded(Self.item) }
        let timer = FeatureTester(initialState: 0, reducer: reduceTimer, perform: performTimer)
        lines.append(#line + 1)
        await timer.send(.start(ticks: 0))
        await timer.finish()
        await tester.finish()
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          FeatureTester.send(.load) asked for an effect the test did not assert:
            [0] .fetch(id: "42", after: .seconds(0))
          Assert it after this step with tester.assertEffects([…]).
          """,
          line: lines[0]
        ),
        CapturedIssue(
          """
          FeatureTester.send(.start(ticks: 0)) asked for an effect the test did not assert:
            [0] .ticks(0, every: .seconds(1))
          Assert it after this step with tester.assertEffects([…]).
          """,
          line: lines[1]
        ),
      ]
    )
  }

  @Test func assertEffectsBeforeAnyStepIsReported() async {
    var line = 0
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let tester = wordsTester()
        line = #line + 1
        tester.assertEffects([])
        await tester.finish()
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          FeatureTester.assertEffects(_:) was called before any step, so there are no effects to assert. Call it \
          after await tester.send(_:assert:) or await tester.receive(_:assert:).
          """,
          line: line
        )
      ]
    )
  }

  // MARK: Receiving

  @Test func receiveReportsAnotherActionThanExpected() async {
    var line = 0
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let tester = wordsTester()
        await tester.send(.split("a b"))
        tester.assertEffects([["a", "b"]])
        line = #line + 1
        await tester.receive(.append("b")) { $0 = ["b"] }
        await tester.receive(.append("b")) { $0 = ["a", "b"] }
        await tester.finish()
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          FeatureTester.receive(_:assert:) received .append("a"), expected .append("b").
          Received after it, not asserted yet:
            [0] .append("b")
          Receive the actions in the order the effects fed them back.
          """,
          line: line
        )
      ]
    )
  }

  @Test func receiveReportsNothingReceivedAndWhatIsPending() async {
    var line = 0
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let api = CatalogAPI()
        api.fetches.stub(returning: Self.item)
        let tester = loadTester(api: api)
        await tester.send(.load) { $0 = .loading }
        tester.assertEffects([.fetch(id: "42", after: .zero)])
        await tester.advance(by: .milliseconds(100))
        line = #line + 1
        await tester.receive(.answered(Self.item)) { $0 = .loaded(Self.item) }
        await tester.advance(by: .milliseconds(200))
        await tester.receive(.answered(Self.item)) { $0 = .loaded(Self.item) }
        await tester.finish()
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          FeatureTester.receive(_:assert:) received nothing by .milliseconds(100), expected \
          .answered(Item(id: "42", title: "Blob", tags: [])).
          Pending on the scheduler:
            [0] sleep due at .milliseconds(300), scheduled at \(CatalogAPI.sleepSite)
          Advance time first: await tester.advance(by: .milliseconds(200)) runs the next of them.
          """,
          line: line
        )
      ]
    )
  }

  @Test func receiveReportsThatNothingWillArrive() async {
    var line = 0
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let tester = FeatureTester(initialState: 0, reducer: reduceTimer, perform: performTimer)
        await tester.send(.stop)
        line = #line + 1
        await tester.receive(.tick) { $0 = 1 }
        await tester.finish()
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          FeatureTester.receive(_:assert:) received nothing by .seconds(0), expected .tick.
          No effect is running and nothing is pending on the scheduler, so no action will arrive. Check that an \
          earlier step asks for the effect that sends it.
          """,
          line: line
        )
      ]
    )
  }

  @Test func receiveReportsAnEffectWaitingForSomethingElse() async {
    var line = 0
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let (answers, answer) = AsyncStream<String>.makeStream()
        let tester = FeatureTester(initialState: [String](), reducer: appendWords) { _, send in
          for await word in answers { send(.append(word)) }
        }
        await tester.send(.split("x"))
        tester.assertEffects([["x"]])
        line = #line + 1
        await tester.receive(.append("a")) { $0 = ["a"] }
        answer.yield("a")
        answer.finish()
        await tester.receive(.append("a")) { $0 = ["a"] }
        await tester.finish()
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          FeatureTester.receive(_:assert:) received nothing by .seconds(0), expected .append("a").
          Nothing is pending on the scheduler, and an effect is still running, waiting for something else (a \
          stream, a continuation):
            [0] ["x"], asked for by send(.split("x"))
          Resume what it waits for before this line.
          """,
          line: line
        )
      ]
    )
  }

  @Test func actionsNotReceivedAreReportedByTheNextSend() async {
    var line = 0
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let tester = wordsTester()
        await tester.send(.split("a b"))
        tester.assertEffects([["a", "b"]])
        line = #line + 1
        await tester.send(.split("c"))
        tester.assertEffects([["c"]])
        await tester.receive(.append("c")) { $0 = ["a", "b", "c"] }
        await tester.finish()
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          FeatureTester.send(.split("c")) found 2 actions fed back that the test did not receive:
            [0] .append("a"), fed back by ["a", "b"], asked for by send(.split("a b"))
            [1] .append("b"), fed back by ["a", "b"], asked for by send(.split("a b"))
          Assert each with await tester.receive(_:assert:) before this line.
          """,
          line: line
        )
      ]
    )
  }

  @Test func anActionThatArrivesBeforeTheTestSaysIsReportedByTheNextAdvance() async {
    var line = 0
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let tester = await loadAnsweredAt300Milliseconds()
        line = #line + 1
        await tester.advance(by: .milliseconds(100))
        await tester.finish()
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          FeatureTester.advance(by: .milliseconds(100)) found an action fed back that the test did not receive:
            [0] .answered(Item(id: "42", title: "Blob", tags: [])), fed back by .fetch(id: "42", after: .seconds(0)), \
          asked for by send(.load)
          Assert it with await tester.receive(_:assert:) before this line.
          """,
          line: line
        )
      ]
    )
  }

  /// A `receive` after the advance that reported its action says so, instead of that nothing will
  /// send it.
  @Test func receivingAnActionAnAdvanceReportedSaysItArrivedEarly() async {
    var advanceLine = 0
    var receiveLine = 0
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let tester = await loadAnsweredAt300Milliseconds()
        advanceLine = #line + 1
        await tester.advance(by: .milliseconds(100))
        receiveLine = #line + 1
        await tester.receive(.answered(Self.item)) { $0 = .loaded(Self.item) }
        await tester.finish()
      }
    }.issues
    #expect(issues.map(\.line) == [advanceLine, receiveLine])
    #expect(
      issues.last?.message == """
        FeatureTester.receive(_:assert:) received nothing by .milliseconds(400), expected \
        .answered(Item(id: "42", title: "Blob", tags: [])): it arrived earlier, and FeatureTester.advance(by: \
        .milliseconds(100)) at EffectsTestSupportTests/FeatureTesterFailureTests.swift:\(advanceLine) reported it as \
        not received. Receive it before that line.
        """
    )
  }

  // MARK: Skipping

  @Test func aSkipWithNothingToSkipIsReportedAsStale() async {
    var lines: [Int] = []
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let tester = FeatureTester(initialState: 0, reducer: reduceTimer, perform: performTimer)
        lines.append(#line + 1)
        await tester.skipReceivedActions()
        lines.append(#line + 1)
        await tester.skipInFlightEffects()
        await tester.finish()
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          FeatureTester.skipReceivedActions() found no action fed back to skip. Remove the call, or pass \
          strict: false where there may be none.
          """,
          line: lines[0]
        ),
        CapturedIssue(
          """
          FeatureTester.skipInFlightEffects() found no effect running to skip. Remove the call, or pass \
          strict: false where there may be none.
          """,
          line: lines[1]
        ),
      ]
    )
  }

  @Test func actionsFedBackBeforeSkipInFlightEffectsMustStillBeReceived() async {
    var line = 0
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let tester = FeatureTester(initialState: 0, reducer: reduceTimer, perform: performTimer)
        await tester.send(.start(ticks: 3))
        tester.assertEffects([.ticks(3, every: .seconds(1))])
        await tester.advance(by: .seconds(1))
        await tester.skipInFlightEffects()
        line = #line + 1
        await tester.finish()
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          FeatureTester.finish() found an action fed back that the test did not receive:
            [0] .tick, fed back by .ticks(3, every: .seconds(1)), asked for by send(.start(ticks: 3))
          Assert it with await tester.receive(_:assert:) before this line.
          """,
          line: line
        )
      ]
    )
  }

  // MARK: The end

  @Test func finishReportsEverythingLeftEachAtItsLine() async {
    var lines: [Int] = []
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        let tester = FeatureTester(initialState: 0, reducer: reduceTimer, perform: performTimer)
        lines.append(#line + 1)
        await tester.send(.start(ticks: 3))
        tester.assertEffects([.ticks(3, every: .seconds(1))])
        lines.append(#line + 1)
        _ = scheduler.schedule(after: .seconds(5)) {}
        await tester.advance(by: .seconds(1))
        lines.append(#line + 1)
        await tester.finish()
        #expect(scheduler.pending.isEmpty)
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          FeatureTester.finish() found an action fed back that the test did not receive:
            [0] .tick, fed back by .ticks(3, every: .seconds(1)), asked for by send(.start(ticks: 3))
          Assert it with await tester.receive(_:assert:) before this line.
          """,
          line: lines[2]
        ),
        CapturedIssue(
          """
          FeatureTester.send(.start(ticks: 3)) asked for an effect still running when the test finished, at \
          .seconds(1):
            [0] .ticks(3, every: .seconds(1))
          Pending on the scheduler:
            [0] sleep due at .seconds(2), scheduled at \(timerSleepSite)
            [1] work due at .seconds(5), scheduled at EffectsTestSupportTests/FeatureTesterFailureTests.swift:\(lines[1])
          await tester.advance(by: .seconds(1)) runs the next of them.
          Let it end before finish(), or cancel it with a later step. It was cancelled.
          """,
          line: lines[0]
        ),
        CapturedIssue(
          """
          TestScheduler has 1 piece of work pending at .seconds(1), expected none:
            [0] work due at .seconds(5), scheduled at EffectsTestSupportTests/FeatureTesterFailureTests.swift:\(lines[1])
          Run it with advance(by:) or run() before this line, or cancel it.
          """,
          line: lines[2]
        ),
      ]
    )
  }

  @Test func aTesterReleasedWithoutFinishReportsAtItsCreation() async {
    var line = 0
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let api = CatalogAPI()
        api.fetches.stub(returning: Self.item)
        line = #line + 1
        var tester: FeatureTester<Load, LoadAction, LoadEffect>? = loadTester(api: api)
        await tester?.send(.load) { $0 = .loading }
        tester = nil
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          FeatureTester made here was released without finish(), leaving what the test did not account for:
            [0] .fetch(id: "42", after: .seconds(0)), asked for by send(.load) and not asserted
            [1] .fetch(id: "42", after: .seconds(0)), asked for by send(.load), still running (cancelled now)
          End the test with await tester.finish(), which settles the effects and reports each of these at the line \
          that caused it.
          """,
          line: line
        )
      ]
    )
  }

  @Test func aTesterMadeOutsideAScopeSaysHowToOpenOne() async {
    var lines: [Int] = []
    let issues = await withCapturedIssues {
      lines.append(#line + 1)
      let tester = FeatureTester(initialState: [], reducer: appendWords) { _, _ in }
      await tester.finish()
      lines.append(#line + 1)
      let given = FeatureTester(initialState: [], reducer: appendWords, scheduler: TestScheduler()) { _, _ in }
      await given.finish()
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          FeatureTester was made outside a virtual-time scope, so there is no test scheduler for its effects to run \
          on: it uses a new one that nothing else uses, and cannot wait for its effects. Mark the test \
          @Test(.virtualTime) (or its suite @Suite(.virtualTime)), or make the tester inside \
          withVirtualTime { scheduler in … }; inside scheduler.withVirtualTime { … }, pass scheduler: scheduler.
          """,
          line: lines[0]
        ),
        CapturedIssue(
          """
          FeatureTester was given a TestScheduler with no virtual-time scope open, so it cannot wait for its \
          effects. Make the tester inside scheduler.withVirtualTime { … }.
          """,
          line: lines[1]
        ),
      ]
    )
  }

  // MARK: Non-exhaustive

  @Test func offReportsAnAssertThatChangesTheActualState() async {
    var line = 0
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let tester = wordsTester(.off)
        await tester.send(.split("a"))
        line = #line + 1
        await tester.receive(.append("a")) { $0 = ["b"] }
        await tester.finish()
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          FeatureTester.receive(.append("a")) changed the state other than assert: says (+ actual, - expected):
              [
            +   "a"
            -   "b"
              ]
          With exhaustivity .off, assert: is applied to the actual state and must leave it as it is: fix what it \
          sets, or the reducer.
          """,
          line: line
        )
      ]
    )
  }

  @Test func offReceiveReportsWhatItReceivedInstead() async {
    var line = 0
    let issues = await withCapturedIssues {
      await withVirtualTime { _ in
        let tester = wordsTester(.off)
        await tester.send(.split("a b"))
        line = #line + 1
        await tester.receive(.append("z"))
        await tester.finish()
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          FeatureTester.receive(_:assert:) received nothing equal to .append("z") by .seconds(0); it received:
            [0] .append("a")
            [1] .append("b")
          No effect is running and nothing is pending on the scheduler, so no action will arrive. Check that an \
          earlier step asks for the effect that sends it.
          """,
          line: line
        )
      ]
    )
  }
}
