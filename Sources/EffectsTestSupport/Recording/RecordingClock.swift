import Effects
import Foundation

/// A clock that logs each read of the time as `clock.now`.
struct RecordingClock: WallClock {
  let base: any WallClock
  let log: CallLog

  var now: Date {
    log.record("clock.now")
    return base.now
  }
}
