import Effects
import EffectsTestSupport
import OrderingBugs
import Testing

/// What both search models do.
@MainActor protocol Searching {
  var results: [String] { get }
  func type(_ query: String)
  func cancel()
}

extension LeakyDebounceSearchModel: Searching {}
extension SearchModel: Searching {}

/// Shape 8, a debounce racing a cancel: the user types "swift" and taps Cancel 300 ms later, as the
/// debounce fires. In the default order the debounce fires first and Cancel clears its results; in
/// others Cancel comes first, the debounce swallows its cancellation, searches all the same, and
/// shows results on a cancelled search.
@MainActor @Suite struct DebounceCancelTests {
  /// Type, then cancel as the debounce fires, with `model`: no results shown.
  static func cancellingAsTheDebounceFires(_ model: some Searching, scheduler: TestScheduler) async {
    let clock = Environment.current.continuousClock
    model.type("swift")
    let user = Task {
      try await clock.sleep(for: .milliseconds(300))
      model.cancel()
    }
    await scheduler.advance(by: .milliseconds(300))
    #expect((try? await user.value) != nil)
    #expect(model.results == [], "a cancelled search shows \(model.results)")
  }

  static let titles = ["Swift", "SwiftUI", "Objective-C"]

  static func buggy(_ scheduler: TestScheduler) async {
    await cancellingAsTheDebounceFires(LeakyDebounceSearchModel(index: SearchIndex(titles)), scheduler: scheduler)
  }

  static func fixed(_ scheduler: TestScheduler) async {
    await cancellingAsTheDebounceFires(SearchModel(index: SearchIndex(titles)), scheduler: scheduler)
  }

  @Test(.virtualTime) func theBuggyModelPassesInTheDefaultOrder() async {
    await Self.buggy(TestScheduler.current)
  }

  @Test(arguments: strategies)
  func explorationFindsTheIgnoredCancelAndItsScheduleReplays(_ exploration: Exploration) async throws {
    let schedule = try #require(await failingSchedule(exploring: exploration, Self.buggy))
    #expect(await failures(replaying: schedule, Self.buggy) == 100)
  }

  @Test(.virtualTime(exploring: .pct(runs: 200))) func theFixedModelPassesEveryPCTSchedule() async {
    await Self.fixed(TestScheduler.current)
  }

  @Test(.virtualTime(exploring: .randomWalk(runs: 200))) func theFixedModelPassesEveryRandomWalk() async {
    await Self.fixed(TestScheduler.current)
  }
}
