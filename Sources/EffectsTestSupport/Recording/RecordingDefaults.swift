import Effects

/// A defaults store that logs each read as `defaults.value` with its key; writes pass through.
struct RecordingDefaults: DefaultsStore {
  let base: any DefaultsStore
  let log: CallLog

  func value(forKey key: String) -> DefaultsValue? {
    log.record("defaults.value", key)
    return base.value(forKey: key)
  }

  func setValue(_ value: DefaultsValue?, forKey key: String) {
    base.setValue(value, forKey: key)
  }
}
