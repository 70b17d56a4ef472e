import Effects

/// A bundle that logs each lookup as `bundle.path` with the resource's file name, then asks `base`
/// with the arguments exactly as given (only the logged name is normalised: `.txt` and `txt` both
/// log `number.txt`).
struct RecordingBundle: ResourceBundle {
  let base: any ResourceBundle
  let log: CallLog

  func path(forResource name: String?, ofType ext: String?) -> String? {
    let shown = ext.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 } ?? ""
    log.record("bundle.path", shown.isEmpty ? (name ?? "nil") : "\(name ?? "*").\(shown)")
    return base.path(forResource: name, ofType: ext)
  }
}
