import Effects
import Foundation

/// A generator that logs each identifier asked for as `uuid`.
struct RecordingUUIDs: UUIDGenerator {
  let base: any UUIDGenerator
  let log: CallLog

  func callAsFunction() -> UUID {
    log.record("uuid")
    return base()
  }
}
