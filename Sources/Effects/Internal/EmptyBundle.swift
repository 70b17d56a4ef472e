/// A ``ResourceBundle`` with no resources: the placeholder bundle of test environments.
struct EmptyBundle: ResourceBundle {
  func path(forResource name: String?, ofType ext: String?) -> String? { nil }
}
