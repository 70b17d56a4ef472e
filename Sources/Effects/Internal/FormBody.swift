import Foundation

/// A body of `name=value` pairs joined by `&` (`application/x-www-form-urlencoded`), as a network
/// tape redacts and matches one: pair by pair, in order.
struct FormBody: Equatable {
  var pairs: [(name: String, value: String)]

  /// The pairs of `data`; nil when it is not such a body (no `=`, spaces, not UTF-8).
  init?(_ data: Data) {
    guard let text = String(data: data, encoding: .utf8), text.contains("="),
      !text.contains(where: \.isWhitespace)
    else { return nil }
    var pairs: [(name: String, value: String)] = []
    for pair in text.split(separator: "&", omittingEmptySubsequences: false) {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2 else { return nil }
      pairs.append((String(parts[0]), String(parts[1])))
    }
    self.pairs = pairs
  }

  static func == (lhs: FormBody, rhs: FormBody) -> Bool {
    lhs.pairs.elementsEqual(rhs.pairs) { $0 == $1 }
  }

  /// The names of the pairs, decoded (`+` as a space, then percent-escapes).
  private func name(at index: Int) -> String {
    let name = pairs[index].name.replacingOccurrences(of: "+", with: " ")
    return name.removingPercentEncoding ?? name
  }

  /// The body with the value of every pair whose name satisfies `isRedacted` replaced by
  /// ``NetworkTape/redacted`` (percent-encoded, so the body stays a form), and every other value
  /// passed, decoded, through `values`; nil when nothing changed.
  func redacting(_ isRedacted: (String) -> Bool, values: (String) -> String = { $0 }) -> Data? {
    let redacted = NetworkTape.redacted.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    var changed = false
    let text = pairs.indices.map { index -> String in
      if isRedacted(name(at: index)) {
        changed = true
        return "\(pairs[index].name)=\(redacted)"
      }
      let value = pairs[index].value
      guard let decoded = value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding else {
        return "\(pairs[index].name)=\(value)"
      }
      let rewritten = values(decoded)
      guard rewritten != decoded else { return "\(pairs[index].name)=\(value)" }
      changed = true
      return "\(pairs[index].name)=\(rewritten.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
    }
    return changed ? Data(text.joined(separator: "&").utf8) : nil
  }

  /// The last part of a form's field name, as frameworks nest them: `password` of
  /// `user[password]`, `user[password][]` and `user.password`; the name itself otherwise.
  static func lastPart(of name: String) -> String {
    var name = Substring(name)
    while name.hasSuffix("[]") { name = name.dropLast(2) }
    if name.hasSuffix("]"), let open = name.lastIndex(of: "[") {
      return String(name[name.index(after: open)..<name.index(before: name.endIndex)])
    }
    if let dot = name.lastIndex(of: ".") { return String(name[name.index(after: dot)...]) }
    return String(name)
  }

  /// Whether `sent` is this recorded form: the same pairs in order, a redacted value matching any.
  func matches(_ sent: FormBody) -> Bool {
    pairs.count == sent.pairs.count
      && zip(pairs, sent.pairs).allSatisfy { recorded, sent in
        recorded.name == sent.name
          && (recorded.value == sent.value || recorded.value.removingPercentEncoding == NetworkTape.redacted)
      }
  }
}
