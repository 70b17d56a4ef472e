import Effects

extension Spy {
  /// What a spy answers.
  enum Stub {
    case none
    case output(Output)
    case failure(any Error)
    case closure(@Sendable (Input) throws -> Output)
    case script(Script)
  }

  /// Outputs to answer in turn, each exactly once.
  struct Script {
    var results: [Result<Output, any Error>]
    /// The index of the next output to answer.
    var next = 0
    /// Calls made since the script was set, overflow included.
    var callCount = 0
    /// Where the test set the script: where its leftovers are reported.
    var setAt: CallSite
    /// Whether the unused outputs were already reported, so they are reported once.
    var leftoverReported = false
  }

  /// The unused end of a script, for a report.
  struct ScriptLeftover {
    var setAt: CallSite
    var used: Int
    var unused: ArraySlice<Result<Output, any Error>>

    var message: String {
      let total = used + unused.count
      let list = zip(unused.indices, unused).map { index, result in
        switch result {
        case .success(let output): "\n  [\(index)] \(describe(output))"
        case .failure(let error): "\n  [\(index)] throws \(describe(error))"
        }
      }
      return """
        its script (set at \(setAt)) not used up: \(used) of \(total) \(total == 1 ? "output" : "outputs") \
        used, never used:\(list.joined())
        """
    }
  }

  /// What one call should do, decided under the lock and acted on outside it.
  enum Answer {
    case output(Output)
    case failure(any Error)
    case closure(@Sendable (Input) throws -> Output)
    case noStub
    case scriptUsedUp(callNumber: Int, count: Int, setAt: CallSite)
  }

  struct State {
    var calls: [Input] = []
    /// The index in the call log of each call, when the spy writes to one.
    var logIndices: [Int] = []
    var stub: Stub = .none

    mutating func record(_ input: Input) -> Answer {
      calls.append(input)
      switch stub {
      case .none:
        return .noStub
      case .output(let output):
        return .output(output)
      case .failure(let error):
        return .failure(error)
      case .closure(let body):
        return .closure(body)
      case .script(var script):
        script.callCount += 1
        defer { stub = .script(script) }
        guard script.next < script.results.count else {
          return .scriptUsedUp(callNumber: script.callCount, count: script.results.count, setAt: script.setAt)
        }
        let result = script.results[script.next]
        script.next += 1
        switch result {
        case .success(let output): return .output(output)
        case .failure(let error): return .failure(error)
        }
      }
    }

    /// The unused outputs of the current script, once: later calls answer `nil`.
    mutating func takeUnreportedScriptLeftover() -> ScriptLeftover? {
      guard case .script(var script) = stub, !script.leftoverReported, script.next < script.results.count else {
        return nil
      }
      script.leftoverReported = true
      stub = .script(script)
      return ScriptLeftover(setAt: script.setAt, used: script.next, unused: script.results[script.next...])
    }
  }
}
