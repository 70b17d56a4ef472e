import Foundation

/// How a virtual-time test explores the orders its jobs can run in, to find an ordering bug and
/// replay it: `@Test(.virtualTime(exploring: .pct()))`, or
/// `withVirtualTime(exploring: .randomWalk()) { scheduler in … }`.
///
/// By default a scope runs each lane's jobs in the order they became ready: one interleaving is
/// tested. Exploring runs the test's body again and again, each run in an order chosen from a
/// seed: whenever more than one job of the scope is ready (a task's next step, a main-actor job, an
/// actor's turn), the seed chooses which runs next, and one job runs at a time. Virtual time stays
/// exact: a sleep still ends at its instant, and only jobs ready at the same point are reordered.
///
/// ```swift
/// @Test(.virtualTime(exploring: .pct()))
/// func loadsTheAvatarOnce() async {
///   let cache = AvatarCache()
///   async let first = cache.image(for: "ada")
///   async let second = cache.image(for: "ada")
///   _ = await (first, second)
///   #expect(await cache.fetches == 1)
/// }
/// ```
///
/// The first run that fails stops the exploration, and its report gives the schedule as one line
/// to paste: `.virtualTime(exploring: .replay("pct2.40-…"))` runs that order again, the same
/// every time, while you fix the bug. A schedule that no longer fits the test (its jobs changed)
/// is reported as such.
///
/// Which strategy finds what (the article *Finding ordering bugs* has the measurements, on eight
/// bug shapes in the Examples package): both found every shape, in a median of 1 to 16 runs at
/// PCT's default depth and 1 to 5 for a random walk. Start with either; raise PCT's depth for a bug
/// that needs three tasks to line up.
///
/// Each run makes its world afresh: the test's body (and an `.environment` trait's environment)
/// runs again, on a new scheduler at the same start. State kept outside the body (a global, a
/// suite's stored property) is shared by the runs.
public struct Exploration: Sendable, Equatable, CustomStringConvertible {
  enum Plan: Sendable, Equatable {
    case explore(strategy: Strategy, runs: Int, seed: UInt64)
    case replay(String)
  }

  /// A strategy as the user chose it; PCT's steps are estimated run by run.
  enum Strategy: Sendable, Equatable {
    case randomWalk
    case pct(depth: Int)
  }

  let plan: Plan

  /// Explores `runs` orders, each chosen by a random walk: whenever jobs are ready together, any
  /// of them runs next, uniformly. Run `i` uses a seed drawn from `seed` and `i`, so the same
  /// exploration tries the same orders every time it runs (pass another `seed` for others).
  ///
  /// ```swift
  /// @Test(.virtualTime(exploring: .randomWalk(runs: 500)))
  /// func savesEveryEdit() async { … }
  /// ```
  public static func randomWalk(runs: Int = 100, seed: UInt64 = 0) -> Self {
    Self(plan: .explore(strategy: .randomWalk, runs: runs, seed: seed))
  }

  /// Explores `runs` orders chosen by PCT (probabilistic concurrency testing, Burckhardt et al.,
  /// ASPLOS 2010) for bugs of `depth` (1 or more): the number of orderings between jobs that must
  /// line up for the bug to show. A check-then-act across one `await` is depth 1 or 2; a bug that
  /// needs one task to run between two steps of another, and a third to come last, is depth 3.
  ///
  /// Each task gets a random priority and the highest ready one runs; at `depth − 1` turns drawn
  /// from the seed, the running task drops below the others. One run finds a bug of depth `d` with
  /// probability at least 1 / (n · k^(d−1)), for `n` tasks and `k` turns where jobs were ready
  /// together: far more often, in practice, than that bound.
  ///
  /// ```swift
  /// @Test(.virtualTime(exploring: .pct(depth: 2, runs: 200)))
  /// func refreshesTheTokenOnce() async { … }
  /// ```
  public static func pct(depth: Int = 2, runs: Int = 100, seed: UInt64 = 0) -> Self {
    Self(plan: .explore(strategy: .pct(depth: depth), runs: runs, seed: seed))
  }

  /// Runs the test once, in the order of `schedule`: the text a failing exploration reported. The
  /// same order runs every time, so the failure comes back every time, until it is fixed.
  ///
  /// ```swift
  /// @Test(.virtualTime(exploring: .replay("pct2.40-9e3779b97f4a7c15-12-5d0c81f3")))
  /// func refreshesTheTokenOnce() async { … }
  /// ```
  ///
  /// When the test's jobs have changed since (more, fewer, others), the schedule no longer
  /// describes an order of them: the run goes on in the order the seed now gives, and says that the
  /// schedule no longer fits.
  public static func replay(_ schedule: String) -> Self {
    Self(plan: .replay(schedule))
  }

  /// `.pct(depth: 2, runs: 100, seed: 0)`, `.replay("…")`.
  public var description: String {
    switch plan {
    case .explore(.randomWalk, let runs, let seed):
      ".randomWalk(runs: \(runs), seed: \(seed))"
    case .explore(.pct(let depth), let runs, let seed):
      ".pct(depth: \(depth), runs: \(runs), seed: \(seed))"
    case .replay(let schedule):
      ".replay(\(ExplorationWording.quoted(schedule)))"
    }
  }
}

/// One run's schedule, as a report prints it and ``Exploration/replay(_:)`` reads it:
/// `random-<seed>-<choices>-<hash>` or `pct<depth>.<steps>-<seed>-<choices>-<hash>`, the seed and
/// hash in hexadecimal.
struct Schedule: Sendable, Equatable {
  var strategy: ScheduleChooser.Strategy
  var seed: UInt64
  var choices: Int
  var hash: UInt32

  /// The schedule `chooser` followed.
  init(of chooser: ScheduleChooser) {
    strategy = chooser.strategy
    seed = chooser.seed
    choices = chooser.choices
    hash = chooser.hash
  }

  /// The schedule `text` spells, spaces and line breaks around it aside; nil when it spells none.
  init?(_ text: String) {
    let parts = text.trimmingCharacters(in: .whitespacesAndNewlines)
      .split(separator: "-", omittingEmptySubsequences: false)
    // As the report prints them: lowercase hexadecimal digits, and a count in decimal digits.
    let hexadecimal = Set("0123456789abcdef")
    guard parts.count == 4,
      parts[1].count == 16, parts[1].allSatisfy(hexadecimal.contains), let seed = UInt64(parts[1], radix: 16),
      let choices = Int(parts[2]), choices >= 0, String(choices) == parts[2],
      parts[3].count == 8, parts[3].allSatisfy(hexadecimal.contains), let hash = UInt32(parts[3], radix: 16)
    else { return nil }
    if parts[0] == "random" {
      strategy = .randomWalk
    } else if parts[0].hasPrefix("pct") {
      let numbers = parts[0].dropFirst(3).split(separator: ".", omittingEmptySubsequences: false)
      guard numbers.count == 2, let depth = Int(numbers[0]), let steps = Int(numbers[1]),
        (1...Exploration.maximumDepth).contains(depth), (1...Exploration.maximumSteps).contains(steps),
        String(depth) == numbers[0], String(steps) == numbers[1]
      else { return nil }
      strategy = .pct(depth: depth, steps: steps)
    } else {
      return nil
    }
    self.seed = seed
    self.choices = choices
    self.hash = hash
  }

  var text: String {
    let prefix =
      switch strategy {
      case .randomWalk: "random"
      case .pct(let depth, let steps): "pct\(depth).\(steps)"
      }
    return "\(prefix)-\(Self.hex(seed, digits: 16))-\(choices)-\(Self.hex(UInt64(hash), digits: 8))"
  }

  private static func hex(_ value: UInt64, digits: Int) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}

extension Exploration {
  /// The most runs one exploration makes.
  static let maximumRuns = 1_000_000
  /// The deepest bug PCT is asked for.
  static let maximumDepth = 16
  /// The most turns with a choice PCT spreads its change points over.
  static let maximumSteps = 1_000_000

  /// The seed of run `run` (from 1) of an exploration seeded `seed`.
  static func seed(ofRun run: Int, from seed: UInt64) -> UInt64 {
    var mixer = SplitMix64(seed: seed ^ (UInt64(run) &* 0xd1b5_4a32_d192_ed03))
    return mixer.next()
  }

  /// What is wrong with this exploration's arguments, said for a report; nil when nothing is.
  var problem: String? {
    switch plan {
    case .explore(let strategy, let runs, _):
      if !(1...Self.maximumRuns).contains(runs) {
        return ExplorationWording.badRuns(runs, in: self)
      }
      if case .pct(let depth) = strategy, !(1...Self.maximumDepth).contains(depth) {
        return ExplorationWording.badDepth(depth, in: self)
      }
      return nil
    case .replay(let text):
      return Schedule(text) == nil ? ExplorationWording.malformedSchedule(text) : nil
    }
  }
}
