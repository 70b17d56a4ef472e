import Effects
import EffectsTestSupport
import Profile

/// An interactor for user 42 whose service is a spy answering after 300 ms, whose retry backoff
/// is 2 s, and whose states are recorded — all on one virtual timeline.
@MainActor
struct SpiedProfileInteractor {
  static let latency = Duration.milliseconds(300)
  static let backoff = Duration.seconds(2)

  let scheduler: TestScheduler
  let service: ProfileServiceDouble
  let states = TestObserver<ProfileState, Never>()
  let interactor: ProfileInteractor

  init(scheduler: TestScheduler, latency: Duration = Self.latency) {
    self.scheduler = scheduler
    service = ProfileServiceDouble(latency: latency, scheduler: scheduler)
    interactor = ProfileInteractor(
      userID: "42",
      service: service,
      retryBackoff: Self.backoff,
      environment: .test(scheduler: scheduler)
    )
    interactor.onStateChange = states.send
  }
}
