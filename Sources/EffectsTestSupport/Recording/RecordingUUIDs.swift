import Effects
import Foundation

/// A generator that logs each identifier asked for as `uuid`.
struct RecordingUUIDs: UUIDGenerating {
  let base: any UUIDGenerating
  let log: CallLog

  func callAsFunction() -> UUID {
    log.record("uuid")
    return base()
  }
}
