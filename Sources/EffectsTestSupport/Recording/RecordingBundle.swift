import Effects

/// A bundle that logs each lookup as `bundle.path` with the resource's file name, then answers
/// from `base`.
struct RecordingBundle: ResourceBundle {
  let base: any ResourceBundle
  let log: CallLog

  func path(forResource name: String?, ofType ext: String?) -> String? {
    let ext = ext.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 } ?? ""
    let resource = ext.isEmpty ? (name ?? "nil") : "\(name ?? "*").\(ext)"
    log.record("bundle.path", resource)
    return base.path(forResource: name, ofType: ext.isEmpty ? nil : ext)
  }
}
