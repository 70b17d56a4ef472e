/// Shape 6's background actor: the live score of a match, as the server pushes it. A task that
/// outlives `stop()` (the bug) subscribes after the screen unsubscribed; the fix waits for it.
public actor ScoreFeed {
  private let latest: String
  /// Whether the app is subscribed to the match.
  public private(set) var isSubscribed = false

  /// A feed whose latest score is `latest`.
  public init(latest: String) {
    self.latest = latest
  }

  /// Subscribes to the match, and answers its latest score.
  public func subscribe() -> String {
    isSubscribed = true
    return latest
  }

  /// Ends the subscription.
  public func unsubscribe() {
    isSubscribed = false
  }
}

/// Shape 6, an unstructured task racing its starter's cleanup. ``start()`` starts a task that
/// subscribes and shows the score; ``stop()`` unsubscribes and clears the score, but leaves the task
/// running: when the task's answer comes after the cleanup, it shows a score on a stopped screen.
///
/// The fix, ``LiveScoreModel``: `stop()` cancels the task and waits for it to end before it cleans
/// up, and the task checks for cancellation after its await, before it writes.
@MainActor public final class LeakingLiveScoreModel {
  /// The score shown; nil while stopped.
  public private(set) var score: String?
  private let feed: ScoreFeed

  /// A model showing the score `feed` gives.
  public init(feed: ScoreFeed) {
    self.feed = feed
  }

  /// Starts showing the live score. The bug: the task it starts is kept nowhere, so `stop()` cannot
  /// stop it; the fix keeps it, and `stop()` cancels it.
  public func start() {
    // The bug: nothing keeps this task, so `stop()` cannot stop it.
    Task {
      let score = await feed.subscribe()
      self.score = score
    }
  }

  /// Stops showing the score. The bug: the task `start()` began may still write after this; the fix
  /// cancels it and waits for it first.
  public func stop() async {
    await feed.unsubscribe()
    score = nil
  }
}

/// Shape 6, fixed: ``LeakingLiveScoreModel`` whose `stop()` cancels the task it started and waits
/// for it before it unsubscribes, and whose task writes nothing once cancelled.
@MainActor public final class LiveScoreModel {
  /// The score shown; nil while stopped.
  public private(set) var score: String?
  private let feed: ScoreFeed
  private var updating: Task<Void, Never>?

  /// A model showing the score `feed` gives.
  public init(feed: ScoreFeed) {
    self.feed = feed
  }

  /// Starts showing the live score. The fix: the task is kept, for `stop()` to cancel, and writes
  /// nothing once cancelled.
  public func start() {
    updating = Task {
      let score = await feed.subscribe()
      guard !Task.isCancelled else { return }
      self.score = score
    }
  }

  /// Stops showing the score. The fix: cancels the task `start()` began and waits for it, before it
  /// unsubscribes and clears.
  public func stop() async {
    let updating = updating
    self.updating = nil
    updating?.cancel()
    await updating?.value  // it writes nothing once cancelled; wait for it to end, subscribed or not
    await feed.unsubscribe()
    score = nil
  }
}
