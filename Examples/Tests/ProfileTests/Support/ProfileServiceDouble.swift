import Effects
import EffectsTestSupport
import Profile

/// The service, faked: each request is recorded by a spy when it goes out, and the spy's answer
/// comes back `latency` later, in the scheduler's virtual time — as a network round trip would.
struct ProfileServiceDouble: ProfileService {
  /// The requests, by user ID; stub it with the answers.
  let fetches = Spy<User.ID, User>("service.fetchUser")
  let latency: Duration
  let scheduler: TestScheduler

  init(latency: Duration = .zero, scheduler: TestScheduler) {
    self.latency = latency
    self.scheduler = scheduler
  }

  nonisolated(nonsending) func fetchUser(id: User.ID) async throws -> User {
    let answer = Result { try fetches(id) }
    try await scheduler.sleep(for: latency)
    return try answer.get()
  }
}
