import Foundation

/// How many times each scenario is replayed; every step of every replay is checked. Set
/// `EFFECTS_REPLAYS` to replay more (a stress run) or fewer.
let replays = ProcessInfo.processInfo.environment["EFFECTS_REPLAYS"].flatMap(Int.init) ?? 500

/// The steps of the replays that did not see what the test expected.
struct Deviations {
  private(set) var list: [String] = []

  /// Records `what` when `condition` does not hold.
  mutating func check(_ condition: Bool, _ what: @autoclosure () -> String) {
    if !condition { list.append(what()) }
  }
}

struct Offline: Error {}
