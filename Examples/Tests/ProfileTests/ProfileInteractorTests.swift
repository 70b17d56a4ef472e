import Effects
import EffectsTestSupport
import Profile
import Testing

/// The profile feature, tested end to end on virtual time with a `FeatureTester`: the reducer the
/// interactor uses, and its effects performed by `ProfileInteractor.perform`, the function the
/// interactor runs them with. Each step states the new state, the effects asked for, and the
/// commands the service's answers feed back, at the virtual instant they arrive; `finish()` checks
/// that nothing else happened and nothing is left running.
///
/// The last test drives the interactor itself by hand, the plain way: its initial state, and the
/// states it publishes through `onStateChange`.
@MainActor
@Suite struct ProfileInteractorTests {
  let latency = SpiedProfileInteractor.latency
  let backoff = SpiedProfileInteractor.backoff

  @Test func loadingShowsLoadingUntilTheServiceAnswersThenTheProfile() async {
    for _ in 0..<100 {
      await withVirtualTime { scheduler in
        let service = ProfileServiceDouble(latency: latency, scheduler: scheduler)
        service.fetches.stub(returning: .blob)
        let tester = FeatureTester.profile(service: service)

        await tester.send(.load) { $0 = .loading }
        tester.assertEffects([.fetchProfile(userID: "42")])
        service.fetches.assertCalls(["42"])

        await tester.advance(by: latency - .milliseconds(1))
        await tester.advance(by: .milliseconds(1))  // fails if the answer came before
        await tester.receive(.fetched(.blob)) { $0 = .loaded(.blob) }
        await tester.finish()
      }
    }
  }

  @Test(.virtualTime) func aFailedLoadShowsTheError() async {
    let service = ProfileServiceDouble(latency: latency, scheduler: .current)
    service.fetches.stub(throwing: ProfileError.offline)
    let tester = FeatureTester.profile(service: service)

    await tester.send(.load) { $0 = .loading }
    tester.assertEffects([.fetchProfile(userID: "42")])
    await tester.advance(by: latency)
    await tester.receive(.fetchFailed(.offline)) { $0 = .failed(.offline) }
    await tester.finish()
  }

  @Test(.virtualTime) func anErrorOfAnotherTypeIsShownByItsDescription() async {
    struct Timeout: Error, CustomStringConvertible {
      var description: String { "The request timed out" }
    }
    let timedOut = ProfileError(message: "The request timed out")
    let service = ProfileServiceDouble(latency: latency, scheduler: .current)
    service.fetches.stub(throwing: Timeout())
    let tester = FeatureTester.profile(service: service)

    await tester.send(.load) { $0 = .loading }
    tester.assertEffects([.fetchProfile(userID: "42")])
    await tester.advance(by: latency)
    await tester.receive(.fetchFailed(timedOut)) { $0 = .failed(timedOut) }
    await tester.finish()
  }

  @Test(.virtualTime) func aRetryWaitsForTheBackoffThenLoadsTheProfile() async {
    let service = ProfileServiceDouble(latency: latency, scheduler: .current)
    service.fetches.stub(script: [.failure(ProfileError.offline), .success(.blob)])
    let tester = FeatureTester.profile(service: service)

    await tester.send(.load) { $0 = .loading }
    tester.assertEffects([.fetchProfile(userID: "42")])
    await tester.advance(by: latency)
    await tester.receive(.fetchFailed(.offline)) { $0 = .failed(.offline) }

    // Retrying shows the spinner at once, but asks again only once the backoff is over.
    await tester.send(.retry) { $0 = .loading }
    tester.assertEffects([.fetchProfile(userID: "42", after: backoff)])
    await tester.advance(by: backoff - .milliseconds(1))
    service.fetches.assertCalls(["42"])
    await tester.advance(by: .milliseconds(1))
    service.fetches.assertCalls(["42", "42"])

    await tester.advance(by: latency)
    await tester.receive(.fetched(.blob)) { $0 = .loaded(.blob) }
    await tester.finish()
    service.fetches.assertScriptConsumed()
  }

  @Test(.virtualTime) func loadingAgainWhileLoadingFetchesOnce() async {
    let service = ProfileServiceDouble(latency: latency, scheduler: .current)
    service.fetches.stub(returning: .blob)
    let tester = FeatureTester.profile(service: service)

    await tester.send(.load) { $0 = .loading }
    tester.assertEffects([.fetchProfile(userID: "42")])
    await tester.send(.load)  // already loading: no change, no second fetch
    await tester.advance(by: latency)
    await tester.receive(.fetched(.blob)) { $0 = .loaded(.blob) }
    await tester.send(.load)  // loaded: nothing to do
    await tester.finish()
    service.fetches.assertCalls(["42"])
  }

  @Test(.virtualTime) func retryingAgainDuringTheBackoffFetchesOnce() async {
    let service = ProfileServiceDouble(latency: latency, scheduler: .current)
    service.fetches.stub(script: [.failure(ProfileError.offline), .success(.blob)])
    let tester = FeatureTester.profile(service: service)
    await tester.send(.load) { $0 = .loading }
    tester.assertEffects([.fetchProfile(userID: "42")])
    await tester.advance(by: latency)
    await tester.receive(.fetchFailed(.offline)) { $0 = .failed(.offline) }

    await tester.send(.retry) { $0 = .loading }
    tester.assertEffects([.fetchProfile(userID: "42", after: backoff)])
    await tester.advance(by: .seconds(1))
    await tester.send(.retry)  // already retrying: no change, no second fetch
    await tester.advance(by: .seconds(1) + latency)
    await tester.receive(.fetched(.blob)) { $0 = .loaded(.blob) }
    #expect(tester.scheduler.elapsed == latency + backoff + latency)
    await tester.finish()
    service.fetches.assertCalls(["42", "42"])
  }

  /// The plain way, by hand — and the example in `ProfileInteractor`'s documentation: the
  /// interactor itself, its initial state and the states it publishes. Even a service that
  /// answers at once is asked again only when the backoff is over.
  @Test(.virtualTime) func aServiceThatAnswersAtOnceIsStillRetriedAfterTheBackoff() async {
    let scheduler = TestScheduler.current
    let spied = SpiedProfileInteractor(scheduler: scheduler, latency: .zero)
    spied.service.fetches.stub(script: [.failure(ProfileError.offline), .success(.blob)])
    #expect(spied.interactor.state == .initialized)

    spied.interactor.send(.load)
    await scheduler.advance()
    #expect(spied.interactor.state == .failed(.offline))

    spied.interactor.send(.retry)
    await scheduler.advance(by: .milliseconds(1999))
    #expect(spied.interactor.state == .loading)
    spied.service.fetches.assertCalls(["42"])

    await scheduler.advance(by: .milliseconds(1))
    #expect(spied.interactor.state == .loaded(.blob))
    spied.service.fetches.assertCalls(["42", "42"])
    spied.states.assertValues([.loading, .failed(.offline), .loading, .loaded(.blob)])
  }
}
