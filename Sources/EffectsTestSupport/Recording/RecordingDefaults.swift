import Effects

/// A defaults store that logs each read as `defaults.value` with its key; writes pass through.
struct RecordingDefaults: DefaultsStore {
  let base: any DefaultsStore
  let log: CallLog

  func value(for key: String) -> DefaultsValue? {
    log.record("defaults.value", key)
    return base.value(for: key)
  }

  func set(_ value: DefaultsValue?, for key: String) {
    base.set(value, for: key)
  }
}
