package import Foundation

/// A request or a response as one line of a failure message: `first` (`POST https://…`, `200`),
/// then the headers and the body when there are any.
/// `bounded`: the headers within ``ReportBudget`` (see ``describeHeaders(_:bounded:)``).
func describeMessage(_ first: String, headers: [String: String], body: Data, bounded: Bool = false) -> String {
  var text = first
  if !headers.isEmpty { text += " \(describeHeaders(headers, bounded: bounded))" }
  if !body.isEmpty { text += " body: \(describeBody(body))" }
  return text
}

/// `["Accept": "text/plain", "Content-Type": "application/json"]`, sorted by name. `bounded`: at
/// most ``ReportBudget/headers`` headers, the rest counted (`… and 12 more`), each name and value
/// cut at ``ReportBudget/valueCharacters``.
package func describeHeaders(_ headers: [String: String], bounded: Bool = false) -> String {
  let sorted = headers.sorted { $0.key < $1.key }
  let shown = bounded ? sorted.prefix(ReportBudget.headers) : sorted[...]
  let pairs = shown.map { name, value in
    bounded
      ? "\(String(reflecting: ReportBudget.clipped(name))): \(String(reflecting: ReportBudget.clipped(value)))"
      : "\(String(reflecting: name)): \(String(reflecting: value))"
  }
  let more = sorted.count - shown.count
  return "[\(pairs.joined(separator: ", "))\(more > 0 ? ", … and \(more) more" : "")]"
}

/// A body as a message shows it: its text, quoted, or `12 bytes` when it is not UTF-8.
package func describeBody(_ body: Data) -> String {
  guard let text = String(data: body, encoding: .utf8) else {
    return body.count == 1 ? "1 byte" : "\(body.count) bytes"
  }
  return String(reflecting: text)
}

/// The value of the header `name` in `headers`, whatever its case: HTTP header names are not
/// case-sensitive.
package func headerValue(_ name: String, in headers: [String: String]) -> String? {
  headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
}
