import Effects

// A call runs as unspecialized generic code, where every use of a generic type (`[Input]`,
// `State`, an enum with an `Output` payload) looks up its metadata in a global table — together
// more than the rest of a call. So every stored field below has a fixed layout whatever `Input` and
// `Output` are (buffers, arrays, closures, integers, call sites), inputs go to a `CallBuffer`, the
// lock returns a non-generic `SpyRoute`, and `record` is a static method of the class. The
// benchmark `spy-record` measures a call.

extension Spy {
  /// How a stub answers one call: return an output, or throw.
  typealias Response = (Input) throws -> Output

  /// Responses to give in turn, each exactly once.
  struct Script {
    var responses: [Response]
    /// Each response as failure messages show it: `"abc"`, `throws Offline()`.
    var descriptions: [String]
    /// The index of the next response.
    var next = 0
    /// Calls made since the script was set, overflow included.
    var callCount = 0
    /// Where the test set the script: where its leftovers are reported.
    var setAt: CallSite
    /// Whether the unused responses were already reported, so they are reported once.
    var leftoverReported = false

    init(_ results: [Result<Output, any Error>], setAt: CallSite) {
      responses = results.map { result in { _ in try result.get() } }
      descriptions = results.map { result in
        switch result {
        case .success(let output): describe(output)
        case .failure(let error): "throws \(describe(error))"
        }
      }
      self.setAt = setAt
    }
  }

  /// The unused end of a script, for a report.
  struct ScriptLeftover {
    var setAt: CallSite
    var used: Int
    var unused: ArraySlice<String>

    var message: String {
      let total = used + unused.count
      let list = renderList(zip(unused.indices, unused).map { (index: $0, text: $1) })
      return """
        its script (set at \(setAt)) not used up: \(used) of \(total) \(total == 1 ? "output" : "outputs") \
        used, never used:\(list)
        Remove the outputs never used, or find the calls that should have used them.
        """
    }
  }

  struct State {
    let calls = CallBuffer<Input>()
    /// The index in the call log of each call, when the spy writes to one.
    var logIndices: [Int] = []
    /// The stub answering every call, unless a script is set.
    var response: Response?
    var script: Script?

    /// Replaces the stub; answers the unused end of the script it replaces, if not yet reported,
    /// and the stub and script replaced, which the spy drops once it has unlocked: what their
    /// closures capture may call the spy from its `deinit`.
    mutating func replaceStub(
      response: Response?,
      script: Script?
    ) -> (leftover: ScriptLeftover?, replaced: (Response?, Script?)) {
      let leftover = takeUnreportedScriptLeftover()
      let replaced = (self.response, self.script)
      self.response = response
      self.script = script
      return (leftover, replaced)
    }

    /// The unused end of the current script, once: later calls answer `nil`.
    mutating func takeUnreportedScriptLeftover() -> ScriptLeftover? {
      guard var script, !script.leftoverReported, script.next < script.responses.count else { return nil }
      script.leftoverReported = true
      self.script = script
      return ScriptLeftover(setAt: script.setAt, used: script.next, unused: script.descriptions[script.next...])
    }
  }

  /// Records `input` in `state`; hands out the response to give in `response`.
  ///
  /// A static method of the class rather than a method of `State`: calling a method of a generic
  /// struct looks up the struct's metadata on every call.
  static func record(_ input: Input, in state: inout State, response: inout Response?) -> SpyRoute {
    state.calls.append(input)
    if let stub = state.response {
      response = stub
      return .respond
    }
    guard var script = state.script else { return .noStub }
    script.callCount += 1
    defer { state.script = script }
    guard script.next < script.responses.count else {
      return .scriptUsedUp(callNumber: script.callCount, outputs: script.responses.count, setAt: script.setAt)
    }
    response = script.responses[script.next]
    script.next += 1
    return .respond
  }
}

/// What one call of a spy does, decided under its lock and acted on outside it.
enum SpyRoute {
  /// Give the response handed out with the route.
  case respond
  /// There is no stub.
  case noStub
  /// The script has no response left for this call.
  case scriptUsedUp(callNumber: Int, outputs: Int, setAt: CallSite)
}
