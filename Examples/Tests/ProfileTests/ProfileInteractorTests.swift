import Effects
import EffectsTestSupport
import Profile
import Testing

/// The interactor, tested end to end on virtual time: each step sends a command or moves time,
/// then checks the state, the requests that went out (the effects performed) and the work still
/// pending. `@Test(.virtualTime)` gives each test its own scheduler and checks, when the test
/// ends, that nothing was left pending; the replayed test opens a scope per replay by hand.
@MainActor
@Suite struct ProfileInteractorTests {
  let latency = SpiedProfileInteractor.latency
  let backoff = SpiedProfileInteractor.backoff

  @Test(.virtualTime) func itStartsInitializedAndFetchesNothing() async {
    let scheduler = TestScheduler.current
    let spied = SpiedProfileInteractor(scheduler: scheduler)
    await scheduler.run()
    #expect(spied.interactor.state == .initialized)
    spied.states.assertValues([])
    spied.service.fetches.assertNoCalls()
  }

  @Test func loadingShowsLoadingUntilTheServiceAnswersThenTheProfile() async {
    for _ in 0..<100 {
      let scheduler = TestScheduler()
      await scheduler.withVirtualTime {
        let spied = SpiedProfileInteractor(scheduler: scheduler)
        spied.service.fetches.stub(returning: .blob)

        spied.interactor.send(.load)
        await scheduler.runDue()
        #expect(spied.interactor.state == .loading)
        spied.service.fetches.assertCalls(["42"])
        #expect(scheduler.pending.map(\.offset) == [latency])

        await scheduler.advance(by: latency - .milliseconds(1))
        #expect(spied.interactor.state == .loading)

        await scheduler.advance(by: .milliseconds(1))
        #expect(spied.interactor.state == .loaded(.blob))
        spied.service.fetches.assertCalls(["42"])
        spied.states.assertValues([.loading, .loaded(.blob)])
        scheduler.assertNoPendingWork()
      }
    }
  }

  @Test(.virtualTime) func aFailedLoadShowsTheError() async {
    let scheduler = TestScheduler.current
    let spied = SpiedProfileInteractor(scheduler: scheduler)
    spied.service.fetches.stub(throwing: ProfileError.offline)

    spied.interactor.send(.load)
    await scheduler.runDue()
    #expect(spied.interactor.state == .loading)
    spied.service.fetches.assertCalls(["42"])

    await scheduler.advance(by: latency)
    #expect(spied.interactor.state == .failed(.offline))
    spied.service.fetches.assertCalls(["42"])
    spied.states.assertValues([.loading, .failed(.offline)])
  }

  @Test(.virtualTime) func anErrorOfAnotherTypeIsShownByItsDescription() async {
    struct Timeout: Error, CustomStringConvertible {
      var description: String { "The request timed out" }
    }
    let scheduler = TestScheduler.current
    let spied = SpiedProfileInteractor(scheduler: scheduler)
    spied.service.fetches.stub(throwing: Timeout())
    spied.interactor.send(.load)
    await scheduler.advance(by: latency)
    #expect(spied.interactor.state == .failed(ProfileError(message: "The request timed out")))
  }

  @Test(.virtualTime) func aRetryWaitsForTheBackoffThenLoadsTheProfile() async {
    let scheduler = TestScheduler.current
    let spied = SpiedProfileInteractor(scheduler: scheduler)
    spied.service.fetches.stub(script: [.failure(ProfileError.offline), .success(.blob)])

    spied.interactor.send(.load)
    await scheduler.advance(by: latency)
    #expect(spied.interactor.state == .failed(.offline))
    spied.service.fetches.assertCalls(["42"])
    scheduler.assertNoPendingWork()

    // Retrying shows the spinner at once, but asks again only once the backoff is over.
    spied.interactor.send(.retry)
    await scheduler.runDue()
    #expect(spied.interactor.state == .loading)
    #expect(scheduler.pending.map(\.offset) == [latency + backoff])

    await scheduler.advance(by: backoff - .milliseconds(1))
    #expect(spied.interactor.state == .loading)
    spied.service.fetches.assertCalls(["42"])

    await scheduler.advance(by: .milliseconds(1))
    #expect(spied.interactor.state == .loading)
    spied.service.fetches.assertCalls(["42", "42"])
    #expect(scheduler.pending.map(\.offset) == [latency + backoff + latency])

    await scheduler.advance(by: latency)
    #expect(spied.interactor.state == .loaded(.blob))
    spied.service.fetches.assertCalls(["42", "42"])
    spied.service.fetches.assertScriptConsumed()
    spied.states.assertValues([.loading, .failed(.offline), .loading, .loaded(.blob)])
  }

  /// The example in `ProfileInteractor`'s documentation: even a service that answers at once is
  /// asked again only when the backoff is over.
  @Test(.virtualTime) func aServiceThatAnswersAtOnceIsStillRetriedAfterTheBackoff() async {
    let scheduler = TestScheduler.current
    let spied = SpiedProfileInteractor(scheduler: scheduler, latency: .zero)
    spied.service.fetches.stub(script: [.failure(ProfileError.offline), .success(.blob)])

    spied.interactor.send(.load)
    await scheduler.runDue()
    #expect(spied.interactor.state == .failed(.offline))

    spied.interactor.send(.retry)
    await scheduler.advance(by: .milliseconds(1999))
    #expect(spied.interactor.state == .loading)
    spied.service.fetches.assertCalls(["42"])

    await scheduler.advance(by: .milliseconds(1))
    #expect(spied.interactor.state == .loaded(.blob))
    spied.service.fetches.assertCalls(["42", "42"])
  }

  @Test(.virtualTime) func loadingAgainWhileLoadingFetchesOnce() async {
    let scheduler = TestScheduler.current
    let spied = SpiedProfileInteractor(scheduler: scheduler)
    spied.service.fetches.stub(returning: .blob)

    spied.interactor.send(.load)
    spied.interactor.send(.load)
    await scheduler.advance(by: latency)
    spied.interactor.send(.load)
    await scheduler.run()
    #expect(spied.interactor.state == .loaded(.blob))
    spied.service.fetches.assertCalls(["42"])
    spied.states.assertValues([.loading, .loaded(.blob)])
  }

  @Test(.virtualTime) func retryingAgainDuringTheBackoffFetchesOnce() async {
    let scheduler = TestScheduler.current
    let spied = SpiedProfileInteractor(scheduler: scheduler)
    spied.service.fetches.stub(script: [.failure(ProfileError.offline), .success(.blob)])
    spied.interactor.send(.load)
    await scheduler.advance(by: latency)

    spied.interactor.send(.retry)
    await scheduler.advance(by: .seconds(1))
    spied.interactor.send(.retry)
    await scheduler.run()
    #expect(spied.interactor.state == .loaded(.blob))
    spied.service.fetches.assertCalls(["42", "42"])
    #expect(scheduler.elapsed == latency + backoff + latency)
  }
}
