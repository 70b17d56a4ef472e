import Effects
import EffectsTestSupport
import OrderingBugs
import Testing

/// What both live-score models do.
@MainActor protocol ShowingScore {
  var score: String? { get }
  func start()
  func stop() async
}

extension LeakingLiveScoreModel: ShowingScore {}
extension LiveScoreModel: ShowingScore {}

/// Shape 6, an unstructured task racing its starter's cleanup: the screen starts the live score,
/// and is closed at once. In the default order the task has shown the score when `stop()` clears
/// it; in others the task's answer comes after the cleanup, and a stopped screen shows a score.
@MainActor @Suite struct TaskOutlivesStopTests {
  /// Start, then stop at once, with `model` on `feed`: nothing shown, nothing subscribed.
  static func startingThenStoppingAtOnce(_ model: some ShowingScore, feed: ScoreFeed, scheduler: TestScheduler) async {
    model.start()
    let stopping = Task { await model.stop() }
    await stopping.value
    await scheduler.advance(by: .zero)  // whatever start() left running has run
    #expect(model.score == nil, "a stopped screen shows the score \(model.score ?? "")")
    #expect(await feed.isSubscribed == false, "a stopped screen is still subscribed")
  }

  static func buggy(_ scheduler: TestScheduler) async {
    let feed = ScoreFeed(latest: "2–1")
    await startingThenStoppingAtOnce(LeakingLiveScoreModel(feed: feed), feed: feed, scheduler: scheduler)
  }

  static func fixed(_ scheduler: TestScheduler) async {
    let feed = ScoreFeed(latest: "2–1")
    await startingThenStoppingAtOnce(LiveScoreModel(feed: feed), feed: feed, scheduler: scheduler)
  }

  @Test(.virtualTime) func theBuggyModelPassesInTheDefaultOrder() async {
    await Self.buggy(TestScheduler.current)
  }

  @Test(arguments: strategies)
  func explorationFindsTheWriteAfterStopAndItsScheduleReplays(_ exploration: Exploration) async throws {
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
