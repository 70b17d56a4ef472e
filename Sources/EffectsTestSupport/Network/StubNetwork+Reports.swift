import Effects
import Foundation

extension StubNetwork {
  /// The failure for `request`, which no stub matches: the request, the closest stub with a diff,
  /// and the fix. Bodies are shown by ``bodyPreview(_:)``: a 50 MB body by its first KiB.
  func unmatchedMessage(_ request: NetworkRequest) -> String {
    let stubs = state.withLock { $0.stubs }
    let request = shown(request)
    let opening = "StubNetwork got a request no stub matches: \(preview(request))."
    let consequence = "The code that sent it got StubNetworkError."
    guard
      let closest = stubs.max(by: {
        $0.likeness(to: request).lexicographicallyPrecedes($1.likeness(to: request))
      })
    else {
      if let file = state.withLock({ $0.tapeFile }), !FileManager.default.fileExists(atPath: file.path) {
        return """
          \(opening) It was to play the tape at \(file.path), which does not exist: see the issue at the line that \
          made the network. \(consequence)
          """
      }
      if let file = state.withLock({ $0.tapeFile }) {
        return """
          \(opening) It plays the tape at \(file.path), which holds no exchange (it was recorded while no request \
          got a response, or it could not be read: see the issue at the line that made the network). Record it \
          again where the server can be reached (\(recordingHint)). \(consequence)
          """
      }
      return """
        \(opening) It has no stubs. Stub what the server should answer before the code under test sends the \
        request: network.stub(\(Self.spelled(request)), .ok()). \(consequence)
        """
    }
    let fix =
      closest.tape == nil
      ? "Add a stub for this request"
      : "Record the tape again if the code now sends this request (\(recordingHint))"
    let diff =
      lineDiff(
        actual: Self.lines(of: request, against: closest.request),
        expected: Self.lines(of: closest.request),
        context: 3
      )
      ?? "    (the stub names a header the request does not carry)"
    return """
      \(opening) The closest of its \(counted(stubs.count, "stub")), \(closest.origin), differs \
      (+ the request, - the stub):
      \(diff)
      \(fix), or fix the request the code sends; a stub matches the same method, URL and body, with every header \
      it names. \(consequence)
      """
  }

  /// Reports, once each, the stubs no request used, at the line that made them, with the requests
  /// the network got (a list cut as ``renderList(_:)`` cuts it, bodies shown by
  /// ``bodyPreview(_:)``).
  func reportUnusedStubs(from first: Int = 0) {
    let (unused, requests) = state.withLock { state -> ([Stub], [NetworkRequest]) in
      var unused: [Stub] = []
      for index in state.stubs.indices.dropFirst(first)
      where state.stubs[index].uses == 0 && !state.stubs[index].isReported
        && (state.stubs[index].tape == nil || state.expectsEveryExchange)
      {
        state.stubs[index].isReported = true
        unused.append(state.stubs[index])
      }
      return (unused, state.requests)
    }
    let received =
      requests.isEmpty ? " It got no request." : " It got:\(renderList(requests) { preview(shown($0)) })"
    // One issue per line that made them: a tape of 5,000 exchanges nothing asked for, or stubs made
    // in a loop, is one report that lists them (cut as any list is), not thousands.
    struct Place: Hashable {
      var callSite: CallSite
      var isTape: Bool
    }
    var order: [Place] = []
    var groups: [Place: [Stub]] = [:]
    for stub in unused {
      let place = Place(callSite: stub.callSite, isTape: stub.tape != nil)
      if groups[place] == nil { order.append(place) }
      groups[place, default: []].append(stub)
    }
    for place in order {
      let stubs = groups[place] ?? []
      guard let stub = stubs.first else { continue }
      reportIssue(
        place.isTape ? unusedExchanges(stubs, received: received) : Self.unusedStubs(stubs, received: received),
        kind: .unusedStub,
        at: stub.callSite
      )
    }
  }

  /// What the exchanges of a tape played at one line say when nothing asked for them.
  private func unusedExchanges(_ stubs: [Stub], received: String) -> String {
    let fix = """
      Record the tape again if the code no longer sends \(stubs.count == 1 ? "this request" : "these requests") \
      (\(recordingHint)), or find why it did not (a request matches with the same method, URL and body, and every \
      header the tape names). A test that uses part of a tape says so: network.expectsEveryExchange = false.
      """
    guard stubs.count > 1 else {
      let stub = stubs[0]
      return """
        StubNetwork played a tape here, and nothing asked for \(stub.tape?.place ?? "an exchange"): \
        \(Self.summary(of: stub)).\(received)
        \(fix)
        """
    }
    let list = renderList(stubs) { "\($0.tape?.place ?? "an exchange"): \(Self.summary(of: $0))" }
    return """
      StubNetwork played a tape here, and nothing asked for \(stubs.count) of its exchanges:\(list)
      \(received.dropFirst())
      \(fix)
      """
  }

  /// What stubs made at one line say when no request used them.
  private static func unusedStubs(_ stubs: [Stub], received: String) -> String {
    guard stubs.count > 1 else {
      return """
        StubNetwork stub made here was never used: \(summary(of: stubs[0])).\(received)
        Remove the stub if the code should not send this request, or find why it did not (a request matches with the \
        same method, URL and body).
        """
    }
    return """
      \(stubs.count) StubNetwork stubs made here were never used:\(renderList(stubs, summary(of:)))
      \(received.dropFirst())
      Remove the stubs if the code should not send these requests, or find why it did not (a request matches with \
      the same method, URL and body).
      """
  }

  /// How a tape played here is recorded again, for a message: only where recording can happen.
  var recordingHint: String {
    switch state.withLock({ ($0.tapeFile, $0.tapeMode) }) {
    case (nil, _):
      "it was given to play(_:): make it again, or record one with StubNetwork(tape:)"
    case (_, .play?):
      "this network has mode: .play, which never records: record the tape once with mode: .record"
    default:
      "EFFECTS_TAPES=record"
    }
  }

  /// `request` as a report shows it: for a network that plays or records a tape, redacted as the
  /// tape is (a report lands in logs that are kept and shared, as a tape does); as it is otherwise
  /// (the values of a test's own stubs).
  func shown(_ request: NetworkRequest) -> NetworkRequest {
    let redaction = state.withLock { state -> NetworkTape.Redaction? in
      if let recorder = state.recorder { return recorder.redaction }
      return state.tape != nil || state.tapeFile != nil ? .standard : nil
    }
    guard let redaction else { return request }
    return redaction.apply(to: NetworkTape.Exchange(request: request, response: .ok())).request
  }

  /// `POST https://… → 200 body: "…"` (or `→ throws …`), as messages list a stub, bodies shown by
  /// ``bodyPreview(_:)``.
  private static func summary(of stub: Stub) -> String {
    switch stub.answer {
    case .response(let response): "\(preview(stub.request)) → \(preview(response))"
    case .failure(let error): "\(preview(stub.request)) → throws \(error)"
    }
  }

  /// A request as lines to compare: method and URL, each header, the body (by
  /// ``bodyPreview(_:)``). When the body differs from `stub`'s but reads the same in a preview
  /// (two bodies longer than the preview that differ after it, or two of the same size that are
  /// not text), its line says where the bytes first differ.
  private static func lines(of request: NetworkRequest, against stub: NetworkRequest? = nil) -> [String] {
    var body = request.body.isEmpty ? [] : ["body: \(bodyPreview(request.body))"]
    if let stub, stub.body != request.body, bodyPreview(stub.body) == bodyPreview(request.body) {
      body[0] += " — differs from the stub's at byte \(firstDifference(request.body, stub.body))"
    }
    // A header a tape redacted matches any value: shown redacted, it reads as the same line.
    let headers = request.headers.sorted { $0.key < $1.key }.map { name, value in
      stub?.value(forHeader: name) == NetworkTape.redacted ? "\(name): \(NetworkTape.redacted)" : "\(name): \(value)"
    }
    return ["\(request.method) \(request.url.absoluteString)"] + headers + body
  }

  /// The offset of the first byte where `a` and `b` differ (the size of the shorter when one
  /// starts with the other). Compared a KiB at a time, then byte by byte.
  private static func firstDifference(_ a: Data, _ b: Data) -> Int {
    let count = min(a.count, b.count)
    func bytes(_ data: Data, _ range: Range<Int>) -> Data {
      data[(data.startIndex + range.lowerBound)..<(data.startIndex + range.upperBound)]
    }
    var offset = 0
    while offset + 1024 <= count, bytes(a, offset..<offset + 1024) == bytes(b, offset..<offset + 1024) {
      offset += 1024
    }
    return (offset..<count).first { a[a.startIndex + $0] != b[b.startIndex + $0] } ?? count
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
