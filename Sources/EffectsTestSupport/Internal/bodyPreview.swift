import Effects
import Foundation

/// A body as a failure message shows it: as `NetworkRequest` describes it — its text, quoted, or
/// `12 bytes` when it is not UTF-8 — when it has at most ``OutputBudget/bodyBytes`` bytes. A
/// longer body is never decoded whole: it is shown by its first ``OutputBudget/bodyBytes`` bytes
/// and its size, `"{\"items\":[1,2,…"… (52428800 bytes, the first 1024 shown)`, or by its size
/// alone when those bytes are not text.
func bodyPreview(_ body: Data) -> String {
  let limit = OutputBudget.bodyBytes
  guard body.count > limit else { return describeBody(body) }
  // A cut inside a character leaves up to 3 of its bytes: drop them.
  for cut in 0..<4 {
    let end = limit - cut
    if let text = String(data: body.prefix(end), encoding: .utf8) {
      return "\(String(reflecting: text))… (\(body.count) bytes, the first \(end) shown)"
    }
  }
  return "\(body.count) bytes"
}

/// A request as one line of a failure message: its `description`, with its body shown by
/// ``bodyPreview(_:)`` and its method, URL and headers within the report budget
/// (``NetworkRequest/boundedHead``): `POST https://api.example.com/login ["Content-Type": "application/json"]
/// body: "…"`.
func preview(_ request: NetworkRequest) -> String {
  request.body.isEmpty ? request.boundedHead : "\(request.boundedHead) body: \(bodyPreview(request.body))"
}

/// A response as one line of a failure message: its `description`, with its body shown by
/// ``bodyPreview(_:)``: `200 ["Content-Type": "application/json"] body: "{\"name\":\"Ada\"}"`.
func preview(_ response: NetworkResponse) -> String {
  response.body.isEmpty ? response.boundedHead : "\(response.boundedHead) body: \(bodyPreview(response.body))"
}
