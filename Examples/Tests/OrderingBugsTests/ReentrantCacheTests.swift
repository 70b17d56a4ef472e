import Effects
import EffectsTestSupport
import OrderingBugs
import Testing

/// What both avatar caches answer.
protocol AvatarSource: Actor {
  func avatar(for user: String) async throws -> String
}

extension ReentrantAvatarCache: AvatarSource {}
extension AvatarCache: AvatarSource {}

/// Who wrote a comment: an actor the comment asks before it shows its author's avatar.
actor CommentAuthors {
  func author(ofComment id: Int) -> String { "ada" }
}

/// Shape 1, a reentrant cache: two views of a screen ask for Ada's avatar, the header at once, and
/// a comment once it has looked its author up. In the default order the header's fetch is stored
/// before the comment asks; in others the comment asks while the fetch is under way, and the
/// reentrant cache fetches it a second time.
@Suite struct ReentrantCacheTests {
  /// The screen appears, with `cache`: the avatar must be fetched once.
  static func headerAndCommentShowAdasAvatar(with cache: some AvatarSource) async {
    let network = Environment.current.stubNetwork
    network.stub(.get(avatarURL(for: "ada")), .ok("🧑‍💻"))
    let authors = CommentAuthors()
    let header = Task { try await cache.avatar(for: "ada") }
    let comment = Task {
      let author = await authors.author(ofComment: 1)
      return try await cache.avatar(for: author)
    }
    let shown = [try? await header.value, try? await comment.value]
    #expect(shown == ["🧑‍💻", "🧑‍💻"])
    #expect(network.requests.count == 1, "Ada's avatar was fetched \(network.requests.count) times")
  }

  static func buggy(_: TestScheduler) async {
    await headerAndCommentShowAdasAvatar(with: ReentrantAvatarCache())
  }

  static func fixed(_: TestScheduler) async {
    await headerAndCommentShowAdasAvatar(with: AvatarCache())
  }

  @Test(.virtualTime) func theBuggyCachePassesInTheDefaultOrder() async {
    await Self.buggy(TestScheduler.current)
  }

  @Test(arguments: strategies)
  func explorationFindsTheSecondFetchAndItsScheduleReplays(_ exploration: Exploration) async throws {
    let schedule = try #require(await failingSchedule(exploring: exploration, Self.buggy))
    #expect(await failures(replaying: schedule, Self.buggy) == 100)
  }

  @Test(.virtualTime(exploring: .pct(runs: 200))) func theFixedCachePassesEveryPCTSchedule() async {
    await Self.fixed(TestScheduler.current)
  }

  @Test(.virtualTime(exploring: .randomWalk(runs: 200))) func theFixedCachePassesEveryRandomWalk() async {
    await Self.fixed(TestScheduler.current)
  }
}
