/// A value as failure messages show it: strings quoted (so `""` and `" "` are visible), everything
/// else as `String(describing:)`.
func describe(_ value: Any) -> String {
  switch value {
  case let string as String: string.debugDescription
  case let substring as Substring: String(substring).debugDescription
  case let character as Character: String(character).debugDescription
  default: String(describing: value)
  }
}

/// A list of values for failure messages, one per line, with their indices.
func describeList(_ values: [Any], indent: String = "  ") -> String {
  values.enumerated().map { "\n\(indent)[\($0.offset)] \(describe($0.element))" }.joined()
}

/// `1 time`, `2 times`.
func timesPhrase(_ count: Int) -> String {
  count == 1 ? "1 time" : "\(count) times"
}
