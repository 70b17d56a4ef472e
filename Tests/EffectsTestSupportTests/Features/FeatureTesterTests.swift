import Effects
import EffectsTestSupport
import Testing

/// `FeatureTester` where apps live: a `@MainActor` interactor's effects, an async service that
/// answers in virtual time, effects that wait before they act, effects that feed back many
/// actions, and a new effect that cancels the one in flight. Each test accounts for everything,
/// and ends with `finish()`.
@MainActor
@Suite struct FeatureTesterTests {
  static let item = Item(id: "42", title: "Blob")

  /// A tester of the loading feature, performing its effects with `interactor`'s own `perform`.
  func loadTester(
    api: CatalogAPI,
    exhaustivity: FeatureTester<Load, LoadAction, LoadEffect>.Exhaustivity = .on
  ) -> FeatureTester<Load, LoadAction, LoadEffect> {
    let interactor = LoadInteractor(api: api)
    return FeatureTester(
      initialState: .idle,
      reducer: LoadReducer().reduce,
      exhaustivity: exhaustivity,
      perform: interactor.perform
    )
  }

  @Test func aLoadAsksTheServiceThenShowsItsAnswerExactlyWhenItArrives() async {
    for _ in 0..<200 {
      await withVirtualTime { scheduler in
        let api = CatalogAPI()
        api.fetches.stub(returning: Self.item)
        let tester = loadTester(api: api)

        await tester.send(.load) { $0 = .loading }
        tester.assertEffects([.fetch(id: "42", after: .zero)])
        api.fetches.assertCalls(["42"])  // the effect ran to its first suspension: the request is out

        await tester.advance(by: .milliseconds(299))
        await tester.advance(by: .milliseconds(1))  // reports an answer that arrived before
        await tester.receive(.answered(Self.item)) { $0 = .loaded(Self.item) }
        #expect(scheduler.elapsed == .milliseconds(300))
        await tester.finish()
      }
    }
  }

  @Test(.virtualTime) func aFailureThenARetryAfterTheBackoff() async {
    let api = CatalogAPI()
    api.fetches.stub(script: [.failure(ServerDown()), .success(Self.item)])
    let tester = loadTester(api: api)

    await tester.send(.load) { $0 = .loading }
    tester.assertEffects([.fetch(id: "42", after: .zero)])
    await tester.advance(by: .milliseconds(300))
    await tester.receive(.failed("offline")) { $0 = .failed("offline") }

    await tester.send(.retry) { $0 = .loading }
    tester.assertEffects([.fetch(id: "42", after: .seconds(2))])
    await tester.advance(by: .milliseconds(1_999))
    api.fetches.assertCalls(["42"])  // not asked again before the backoff is over
    await tester.advance(by: .milliseconds(1))
    api.fetches.assertCalls(["42", "42"])
    await tester.advance(by: .milliseconds(300))
    await tester.receive(.answered(Self.item)) { $0 = .loaded(Self.item) }
    await tester.finish()
    api.fetches.assertScriptConsumed()
  }

  @Test(.virtualTime) func anActionThatChangesNothingNeedsNoAssertion() async {
    let api = CatalogAPI()
    let tester = loadTester(api: api)
    await tester.send(.retry)  // nothing failed: nothing to retry
    #expect(tester.state == .idle)
    await tester.finish()
    api.fetches.assertNoCalls()
  }

  @Test func aNewSearchCancelsTheOneInFlight() async {
    for _ in 0..<300 {
      await withVirtualTime { scheduler in
        let searches = Spy<String, [String]>("api.search")
        searches.stub { query in ["swift", "swim"].filter { $0.hasPrefix(query) } }
        let tester = FeatureTester(
          initialState: Search(),
          reducer: reduceSearch,
          cancelInFlight: { _ in "search" }
        ) { effect, send in
          await performSearch(effect, searches: searches) { send(.found($0)) }
        }

        await tester.send(.type("s")) { $0.query = "s" }
        tester.assertEffects([.search("s")])
        await tester.advance(by: .milliseconds(200))
        await tester.send(.type("swi")) { $0.query = "swi" }
        tester.assertEffects([.search("swi")])
        await tester.advance(by: .milliseconds(300))
        await tester.receive(.found(["swift", "swim"])) { $0.results = ["swift", "swim"] }
        searches.assertCalls(["swi"])  // "s" was cancelled during its debounce
        #expect(scheduler.elapsed == .milliseconds(500))
        await tester.finish()
      }
    }
  }

  @Test(.virtualTime) func anActionFedBackByACancelledEffectIsDropped() async {
    let searches = Spy<String, [String]>("api.search")
    searches.stub { [$0] }
    let tester = FeatureTester(
      initialState: Search(),
      reducer: reduceSearch,
      cancelInFlight: { _ in "search" }
    ) { effect, send in
      guard case .search(let query) = effect else { return }
      // Ignores cancellation: a cancelled sleep ends at once, and the effect answers anyway.
      try? await Environment.current.scheduler.sleep(for: .seconds(1))
      send(.found((try? searches(query)) ?? []))
    }
    await tester.send(.type("a")) { $0.query = "a" }
    tester.assertEffects([.search("a")])
    await tester.send(.type("ab")) { $0.query = "ab" }  // "a" answers at once, and is dropped
    tester.assertEffects([.search("ab")])
    searches.assertCalls(["a"])
    await tester.advance(by: .seconds(1))
    await tester.receive(.found(["ab"])) { $0.results = ["ab"] }
    await tester.finish()
    searches.assertCalls(["a", "ab"])
  }

  @Test(.virtualTime) func anEffectFeedsBackActionsAtEveryTick() async {
    let tester = FeatureTester(initialState: 0, reducer: reduceTimer, perform: performTimer)
    await tester.send(.start(ticks: 3))
    tester.assertEffects([.ticks(3, every: .seconds(1))])
    for tick in 1...3 {
      await tester.advance(by: .seconds(1))
      await tester.receive(.tick) { $0 = tick }
    }
    await tester.finish()
  }

  @Test(.virtualTime) func actionsFedBackAtOnceNeedNoAdvance() async {
    let tester = FeatureTester(initialState: [String](), reducer: appendWords) { effect, send in
      for word in effect { send(.append(word)) }  // no suspension: they arrive during the step
    }
    await tester.send(.split("a b"))
    tester.assertEffects([["a", "b"]])
    await tester.receive(.append("a")) { $0 = ["a"] }
    await tester.receive(.append("b")) { $0 = ["a", "b"] }
    await tester.finish()
  }

  @Test func actionsFedBackAtOneInstantArriveInTheOrderTheirEffectsStarted() async {
    for _ in 0..<200 {
      await withVirtualTime { _ in
        let tester = FeatureTester(initialState: [String](), reducer: appendWords) { effect, send in
          do { try await Environment.current.scheduler.sleep(for: .seconds(1)) } catch { return }
          for word in effect { send(.append(word)) }
        }
        await tester.send(.split("a b"))
        tester.assertEffects([["a", "b"]])
        await tester.send(.split("c"))
        tester.assertEffects([["c"]])
        await tester.advance(by: .seconds(1))
        await tester.receive(.append("a")) { $0 = ["a"] }
        await tester.receive(.append("b")) { $0 = ["a", "b"] }
        await tester.receive(.append("c")) { $0 = ["a", "b", "c"] }
        await tester.finish()
      }
    }
  }

  @Test(.virtualTime) func aReceivedActionsEffectsAreStartedAndAsserted() async {
    let tester = FeatureTester(initialState: [String](), reducer: appendWords) { effect, send in
      for word in effect { send(word == "b" ? .split("c d") : .append(word)) }
    }
    await tester.send(.split("a b"))
    tester.assertEffects([["a", "b"]])
    await tester.receive(.append("a")) { $0 = ["a"] }
    await tester.receive(.split("c d"))
    tester.assertEffects([["c", "d"]])
    await tester.receive(.append("c")) { $0.append("c") }
    await tester.receive(.append("d")) { $0.append("d") }
    await tester.finish()
  }

  @Test func theTesterWorksInsideAScopeOfTheTestsOwnScheduler() async {
    let scheduler = TestScheduler()
    await scheduler.withVirtualTime {
      let api = CatalogAPI(scheduler: scheduler)
      api.fetches.stub(returning: Self.item)
      let interactor = LoadInteractor(api: api, environment: .test(scheduler: scheduler))
      let tester = FeatureTester(
        initialState: .idle,
        reducer: LoadReducer().reduce,
        scheduler: scheduler,
        perform: interactor.perform
      )
      await tester.send(.load) { $0 = .loading }
      tester.assertEffects([.fetch(id: "42", after: .zero)])
      await tester.advance(by: .milliseconds(300))
      await tester.receive(.answered(Self.item)) { $0 = .loaded(Self.item) }
      await tester.finish()
    }
  }

  /// The interactor, driven the app's way, goes through the states the tester asserted.
  @Test(.virtualTime) func theInteractorRunsTheSameEffectsInTheApp() async {
    let api = CatalogAPI()
    api.fetches.stub(returning: Self.item)
    let interactor = LoadInteractor(api: api)
    interactor.send(.load)
    await TestScheduler.current.advance()
    #expect(interactor.state == .loading)
    await TestScheduler.current.advance(by: .milliseconds(300))
    #expect(interactor.state == .loaded(Self.item))
  }

  // MARK: Skipping what the test does not care about

  @Test(.virtualTime) func skipReceivedActionsTakesTheActionsFedBackWithoutCheckingThem() async {
    let tester = FeatureTester(initialState: 0, reducer: reduceTimer, perform: performTimer)
    await tester.send(.start(ticks: 3))
    tester.assertEffects([.ticks(3, every: .seconds(1))])
    await tester.advance(by: .seconds(2))
    await tester.skipReceivedActions()  // two ticks, not checked one by one
    #expect(tester.state == 2)
    await tester.advance(by: .seconds(1))
    await tester.receive(.tick) { $0 = 3 }  // the rest of the test is exhaustive again
    await tester.finish()
  }

  @Test(.virtualTime) func skippedActionsNeedNoAssertionOfTheEffectsTheyAskedFor() async {
    let tester = FeatureTester(initialState: [String](), reducer: appendWords) { effect, send in
      for word in effect { send(word == "b" ? .split("c d") : .append(word)) }
    }
    await tester.send(.split("a b"))
    tester.assertEffects([["a", "b"]])
    await tester.skipReceivedActions()  // .split("c d") asked for ["c", "d"]: skipped with it
    #expect(tester.state == ["a", "c", "d"])
    await tester.finish()
  }

  @Test(.virtualTime) func skipInFlightEffectsCancelsWhatStillRunsWithoutAWord() async {
    let tester = FeatureTester(initialState: 0, reducer: reduceTimer, perform: performTimer)
    await tester.send(.start(ticks: 10))
    tester.assertEffects([.ticks(10, every: .seconds(1))])
    await tester.advance(by: .seconds(1))
    await tester.receive(.tick) { $0 = 1 }
    await tester.skipInFlightEffects()  // nine ticks to go: not this test's business
    #expect(TestScheduler.current.pending.isEmpty)
    await tester.finish()
  }

  @Test(.virtualTime) func theSkipsWithStrictOffAcceptNothingToSkip() async {
    let tester = FeatureTester(initialState: 0, reducer: reduceTimer, perform: performTimer)
    await tester.skipReceivedActions(strict: false)
    await tester.skipInFlightEffects(strict: false)
    await tester.finish()
  }

  // MARK: Non-exhaustive

  @Test(.virtualTime) func offChecksOnlyWhatTheTestAsserts() async {
    let api = CatalogAPI()
    api.fetches.stub(script: [.failure(ServerDown()), .success(Self.item)])
    let tester = loadTester(api: api, exhaustivity: .off)

    await tester.send(.load)  // the state change and the effect go unasserted
    await tester.advance(by: .milliseconds(300))
    await tester.send(.retry)  // the failure fed back goes unreceived
    await tester.advance(by: .seconds(2) + .milliseconds(300))
    await tester.receive(.answered(Self.item)) { $0 = .loaded(Self.item) }
    await tester.finish()
  }

  @Test(.virtualTime) func offReceiveSkipsToTheActionExpectedAndChecksOnlyWhatAssertSets() async {
    let tester = FeatureTester(initialState: [String](), reducer: appendWords, exhaustivity: .off) { effect, send in
      for word in effect { send(.append(word)) }
    }
    await tester.send(.split("a b c"))
    await tester.receive(.append("b")) { $0[1] = "b" }  // skips "a"; checks only the second word
    #expect(tester.state == ["a", "b", "c"])
    await tester.finish()  // "c" is never received: fine
  }

  @Test(.virtualTime) func offFinishCancelsWhatIsStillRunning() async {
    let tester = FeatureTester(initialState: 0, reducer: reduceTimer, exhaustivity: .off, perform: performTimer)
    await tester.send(.start(ticks: 10))
    await tester.advance(by: .seconds(1))
    await tester.finish()
    #expect(TestScheduler.current.pending.isEmpty)
  }

  @Test(.virtualTime) func exhaustivityCanBeTurnedOffForPartOfATest() async {
    let tester = FeatureTester(initialState: 0, reducer: reduceTimer, perform: performTimer)
    await tester.send(.start(ticks: 2))
    tester.assertEffects([.ticks(2, every: .seconds(1))])
    tester.exhaustivity = .off
    await tester.advance(by: .seconds(1))
    await tester.send(.stop)  // lets the tick that arrived go: the tester is not exhaustive now
    tester.exhaustivity = .on
    await tester.advance(by: .seconds(1))  // the first tick was skipped while off
    await tester.receive(.tick) { $0 = 2 }
    await tester.finish()
  }
}

/// `.split(text)` asks for its words as one effect; each word sent back is appended.
enum WordAction: Equatable, Sendable {
  case split(String)
  case append(String)
}

func appendWords(_ words: [String], _ action: WordAction) -> Outcome<[String], [String]> {
  switch action {
  case .split(let text): Outcome(value: words, effects: [text.split(separator: " ").map(String.init)])
  case .append(let word): .pure(words + [word])
  }
}
