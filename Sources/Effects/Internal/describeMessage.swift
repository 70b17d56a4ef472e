package import Foundation

/// A request or a response as one line of a failure message: `first` (`POST https://…`, `200`),
/// then the headers and the body when there are any.
func describeMessage(_ first: String, headers: [String: String], body: Data) -> String {
  var text = first
  if !headers.isEmpty { text += " \(describeHeaders(headers))" }
  if !body.isEmpty { text += " body: \(describeBody(body))" }
  return text
}

/// `["Accept": "text/plain", "Content-Type": "application/json"]`, sorted by name.
package func describeHeaders(_ headers: [String: String]) -> String {
  let pairs = headers.sorted { $0.key < $1.key }.map {
    "\(String(reflecting: $0.key)): \(String(reflecting: $0.value))"
  }
  return "[\(pairs.joined(separator: ", "))]"
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
