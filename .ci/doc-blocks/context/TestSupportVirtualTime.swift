// Context for Sources/EffectsTestSupport/Documentation.docc/Articles/VirtualTime.md: the model its
// trait example tests, which loads a profile and, when that fails, retries once two seconds later
// on the environment's clock; and an API double that fails the first fetch only.
import Effects
import EffectsTestSupport

protocol ProfileAPI: Sendable {
  nonisolated(nonsending) func fetchProfile() async throws -> String
}

@MainActor final class ProfileModel {
  enum State: Equatable { case idle, loading, failed, loaded }

  private(set) var state = State.idle
  private let api: any ProfileAPI

  init(api: any ProfileAPI) {
    self.api = api
  }

  func load() async {
    state = .loading
    if (try? await api.fetchProfile()) != nil {
      state = .loaded
      return
    }
    state = .failed
    do {
      try await Environment.current.continuousClock.sleep(for: .seconds(2))
    } catch {
      return
    }
    state = (try? await api.fetchProfile()) != nil ? .loaded : .failed
  }
}

struct FailingOnceAPI: ProfileAPI {
  struct Offline: Error {}

  let fetchSpy = Spy<Void, String>("api.fetchProfile")

  init() {
    fetchSpy.stub(script: [.failure(Offline()), .success("Blob")])
  }

  nonisolated(nonsending) func fetchProfile() async throws -> String {
    try fetchSpy()
  }
}
