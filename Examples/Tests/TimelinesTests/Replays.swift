import Foundation

/// How many times each scenario is replayed (500 by default): set `EFFECTS_REPLAYS` to replay
/// more, for a stress run, or fewer.
let replays = ProcessInfo.processInfo.environment["EFFECTS_REPLAYS"].flatMap(Int.init) ?? 500
