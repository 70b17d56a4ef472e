/// Chooses which ready job of an explored scope runs next, from a seed: the same seed and the same
/// jobs give the same choices, on every run and every machine.
///
/// The scope asks it at every turn (``choose(among:)``): a turn runs one job, and a job becomes
/// ready only while another runs (the scope runs one at a time under exploration), so the jobs
/// ready at a turn depend only on the choices before it. A choice is between jobs ready at the
/// same virtual instant: time moves only when the test advances it, which is itself a job.
///
/// Two strategies (see ``Exploration``):
/// - **A random walk**: each turn, any ready job, uniformly.
/// - **PCT** (probabilistic concurrency testing, Burckhardt, Kothari, Musuvathi and Nagarakatte,
///   ASPLOS 2010): each task gets a random priority when its first job is ready, and the ready job
///   of the task with the highest priority runs. At `depth − 1` turns drawn in advance, the task
///   about to run drops below every other (the i-th drop to priority i). A bug that needs `d`
///   orderings to line up is found by one run with probability at least 1 / (n · k^(d−1)), for
///   `n` tasks and `k` turns with a choice.
///
/// What a run chose is kept as a ``fingerprint``: the count of turns with a choice, and a hash of
/// how many jobs were ready and which ran, at each. A replay compares it, so a schedule that no
/// longer fits the test (its jobs changed) is said, never silently replayed as something else.
///
/// A value, held by the scope's executor under its lock.
struct ScheduleChooser: Sendable {
  /// How the chooser picks.
  enum Strategy: Sendable, Equatable {
    case randomWalk
    /// PCT at `depth`, its change points drawn among the first `steps` turns with a choice.
    case pct(depth: Int, steps: Int)
  }

  let strategy: Strategy
  /// The run's own seed.
  let seed: UInt64
  private var random: SplitMix64
  /// Turns with more than one job ready.
  private(set) var choices = 0
  /// The largest number of jobs ready at one turn.
  private(set) var widest = 0
  /// FNV-1a over the (ready, chosen) pairs of every choice.
  private(set) var hash: UInt32 = 2_166_136_261
  /// PCT: the priority of each task seen, by the runtime's task id; the turns (counted in
  /// choices) at which the task about to run drops, each with the priority it drops to.
  private var priorities: [UInt64: UInt64] = [:]
  private var drops: [Int: UInt64] = [:]
  /// Whether work reached the scope from outside it during the run (a real sleep, I/O, another
  /// thread, a custom executor): it came in an order no seed chooses.
  var workFromOutside = false
  /// Whether this library reported a failure from a task of the run's scope.
  var failureReported = false
  /// Whether a scope ran with this chooser: false when none opened (inside another test's scope,
  /// or where virtual time is unavailable), and nothing was explored.
  var ran = false
  /// The task chosen last (nil: a job of no task), and how many turns with a choice in a row it
  /// has had.
  private var lastTask: UInt64?
  private var inARow = 0

  /// How many turns in a row PCT gives one task (or jobs of no task) while other jobs are ready,
  /// before it treats it as yielding: a task polling in a loop for another task's flag would
  /// otherwise hold the turn for ever.
  static let turnsInARow = 64

  init(strategy: Strategy, seed: UInt64) {
    self.strategy = strategy
    self.seed = seed
    random = SplitMix64(seed: seed)
    if case .pct(let depth, let steps) = strategy, depth > 1 {
      for level in 1..<depth {
        drops[Int(random.next(below: UInt64(max(steps, 1)))) + 1] = UInt64(level)
      }
    }
  }

  /// The index, in `tasks`, of the job to run now. `tasks` holds a key per ready job, in the order
  /// they were queued: the runtime's id of the job's task, or nil for a job that is not a task (an
  /// actor's turn), which PCT ranks afresh each time.
  mutating func choose(among tasks: [UInt64?]) -> Int {
    guard tasks.count > 1 else { return 0 }
    choices += 1
    widest = max(widest, tasks.count)
    let index: Int
    switch strategy {
    case .randomWalk:
      index = Int(random.next(below: UInt64(tasks.count)))
    case .pct:
      index = choosePCT(among: tasks)
    }
    mix(UInt32(truncatingIfNeeded: tasks.count))
    mix(UInt32(truncatingIfNeeded: index))
    return index
  }

  private mutating func choosePCT(among tasks: [UInt64?]) -> Int {
    var ranks: [UInt64] = []
    ranks.reserveCapacity(tasks.count)
    for task in tasks {
      guard let task else {
        ranks.append(freshPriority())
        continue
      }
      if let rank = priorities[task] {
        ranks.append(rank)
      } else {
        let rank = freshPriority()
        priorities[task] = rank
        ranks.append(rank)
      }
    }
    var index = highest(ranks)
    if let level = drops[choices], let task = tasks[index] {
      priorities[task] = level
      ranks[index] = level
      index = highest(ranks)
    }
    // One job chosen again and again while others wait: a task polling for another's flag with
    // `Task.yield()`, whose wake-up may come as a job of no task. It yields the turn: a task drops
    // below every other, and a job of no task gives way to the best of the others.
    if choices > 1, tasks[index] == lastTask {
      inARow += 1
    } else {
      inARow = 0
    }
    if inARow >= Self.turnsInARow {
      inARow = 0
      if let task = tasks[index] {
        priorities[task] = 0
        ranks[index] = 0
      } else {
        for other in ranks.indices where tasks[other] == nil { ranks[other] = 0 }
      }
      index = highest(ranks)
    }
    lastTask = tasks[index]
    return index
  }

  /// A priority above every change point's: drawn from the seed.
  private mutating func freshPriority() -> UInt64 {
    let depth: UInt64 = if case .pct(let depth, _) = strategy { UInt64(depth) } else { 1 }
    return max(random.next(), depth)
  }

  /// The first index of the largest rank.
  private func highest(_ ranks: [UInt64]) -> Int {
    var best = 0
    for index in ranks.indices.dropFirst() where ranks[index] > ranks[best] {
      best = index
    }
    return best
  }

  private mutating func mix(_ value: UInt32) {
    for shift in stride(from: 0, to: 32, by: 8) {
      hash = (hash ^ ((value >> UInt32(shift)) & 0xff)) &* 16_777_619
    }
  }
}

/// SplitMix64 (Steele, Lea and Flood): a small generator, enough to draw a schedule's choices,
/// and the same on every platform.
struct SplitMix64: Sendable {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound`, without modulo bias worth the name (Lemire's multiply-high).
  mutating func next(below bound: UInt64) -> UInt64 {
    bound.multipliedFullWidth(by: next()).high
  }
}
