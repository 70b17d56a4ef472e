import Effects
import Foundation

extension StubNetwork {
  /// The failure for `request`, which no stub matches: the request, the closest stub with a diff,
  /// and the fix.
  func unmatchedMessage(_ request: NetworkRequest) -> String {
    let stubs = state.withLock { $0.stubs }
    let opening = "StubNetwork got a request no stub matches: \(request)."
    let consequence = "The code that sent it got StubNetworkError."
    guard let closest = stubs.max(by: { $0.likeness(to: request) < $1.likeness(to: request) }) else {
      return """
        \(opening) It has no stubs. Stub what the server should answer before the code under test sends the \
        request: network.stub(\(Self.spelled(request)), .ok). \(consequence)
        """
    }
    let diff =
      lineDiff(actual: Self.lines(of: request), expected: Self.lines(of: closest.request), context: 3)
      ?? "    (the stub names a header the request does not carry)"
    return """
      \(opening) The closest of its \(counted(stubs.count, "stub")), made at \(closest.callSite), differs \
      (+ the request, - the stub):
      \(diff)
      Add a stub for this request, or fix the request the code sends; a stub matches the same method, URL and body, \
      with every header it names. \(consequence)
      """
  }

  /// Reports, once each, the stubs no request used, at the line that made them.
  func reportUnusedStubs() {
    let (unused, requests) = state.withLock { state -> ([Stub], [NetworkRequest]) in
      var unused: [Stub] = []
      for index in state.stubs.indices where state.stubs[index].uses == 0 && !state.stubs[index].isReported {
        state.stubs[index].isReported = true
        unused.append(state.stubs[index])
      }
      return (unused, state.requests)
    }
    let received = requests.isEmpty ? " It got no request." : " It got:\(renderList(requests.map(\.description)))"
    for stub in unused {
      reportIssue(
        """
        StubNetwork stub made here was never used: \(stub.summary).\(received)
        Remove the stub if the code should not send this request, or find why it did not (a request matches with the \
        same method, URL and body).
        """,
        at: stub.callSite
      )
    }
  }

  /// A request as lines to compare: method and URL, each header, the body.
  private static func lines(of request: NetworkRequest) -> [String] {
    ["\(request.method) \(request.url.absoluteString)"]
      + request.headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
      + (request.body.isEmpty ? [] : ["body: \(describeBody(request.body))"])
  }

  /// The request as Swift code that makes it, for a message's fix: `.get("https://…")`.
  private static func spelled(_ request: NetworkRequest) -> String {
    let url = String(reflecting: request.url.absoluteString)
    var arguments = [url]
    if !request.headers.isEmpty {
      let pairs = request.headers.sorted { $0.key < $1.key }.map {
        "\(String(reflecting: $0.key)): \(String(reflecting: $0.value))"
      }
      arguments.append("headers: [\(pairs.joined(separator: ", "))]")
    }
    if !request.body.isEmpty { arguments.append("body: …") }
    let method = request.method.lowercased()
    guard ["get", "post", "put", "delete"].contains(method), method != "get" || request.body.isEmpty else {
      return "NetworkRequest(method: \(String(reflecting: request.method)), url: URL(string: \(url))!, …)"
    }
    return ".\(method)(\(arguments.joined(separator: ", ")))"
  }
}
