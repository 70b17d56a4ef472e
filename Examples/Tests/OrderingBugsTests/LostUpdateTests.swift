import Effects
import EffectsTestSupport
import OrderingBugs
import Testing

/// What both tags models do.
@MainActor protocol Tagging {
  func add(_ tag: String) async
  func sync() async throws
}

extension LosingTagsModel: Tagging {}
extension TagsModel: Tagging {}

/// Shape 3, a lost update between two tasks: the user adds the tag "swift" to a note tagged
/// "draft" while the app syncs the server's tag "work". In the default order the add has written
/// before the sync reads; in others both read "draft", and the second write loses the first one's
/// tag.
@MainActor @Suite struct LostUpdateTests {
  /// The add and the sync, on the note's `store`, through `model`: every tag must survive.
  static func addingATagWhileSyncing(_ model: some Tagging, store: TagStore) async {
    let adding = Task { await model.add("swift") }
    let syncing = Task { try await model.sync() }
    await adding.value
    #expect((try? await syncing.value) != nil)
    #expect(await store.tags == ["draft", "swift", "work"])
  }

  static func buggy(_: TestScheduler) async {
    Environment.current.stubNetwork.stub(.get(remoteTagsURL), .ok("work"))
    let store = TagStore(["draft"])
    await addingATagWhileSyncing(LosingTagsModel(store: store), store: store)
  }

  static func fixed(_: TestScheduler) async {
    Environment.current.stubNetwork.stub(.get(remoteTagsURL), .ok("work"))
    let store = TagStore(["draft"])
    await addingATagWhileSyncing(TagsModel(store: store), store: store)
  }

  @Test(.virtualTime) func theBuggyModelPassesInTheDefaultOrder() async {
    await Self.buggy(TestScheduler.current)
  }

  @Test(arguments: strategies)
  func explorationFindsTheLostTagAndItsScheduleReplays(_ exploration: Exploration) async throws {
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
