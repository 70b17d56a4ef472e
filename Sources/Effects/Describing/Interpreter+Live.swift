import Foundation

extension Interpreter where E == Effect {
  /// The live interpreter: it performs every ``Effect`` on ``Environment/current``, as it is when
  /// each effect is performed, and writes failures of `.after` effects to standard error.
  ///
  /// It reads like ``Environment/live``, the real world it usually acts on:
  ///
  /// ```swift
  /// // At launch: the real world, with the app's analytics.
  /// var environment = Environment.live
  /// environment.events = AmplitudeEvents()
  /// Environment.bootstrap(environment)
  ///
  /// // At the boundary:
  /// let square = try Interpreter.live.perform(compute(file: "number.txt"))
  /// ```
  ///
  /// Because it reads the environment at each perform, an interpreter kept from early on (a stored
  /// property of the app) neither reads the root before ``Environment/bootstrap(_:fileID:filePath:line:column:)``
  /// nor misses a `withEnvironment` around a later `perform`. To act on one environment, or to
  /// handle failures of `.after` effects, use ``live(environment:onFailure:)``.
  public static var live: Interpreter<Effect> {
    live(environment: nil)
  }

  /// The live interpreter, configured: it performs every ``Effect`` on one ``Environment``, and
  /// hands failures of `.after` effects to `onFailure`. Everything an effect touches comes from
  /// the environment.
  ///
  /// Each effect is performed by the method of the same name on its target:
  ///
  /// | effect | performed as |
  /// |---|---|
  /// | `.print(line)` | `environment.console.print(line)` (``Console``) |
  /// | `.writeFile(path:contents:)` | `environment.fileWriter.writeFile(path:contents:)` (``FileWriter``) |
  /// | `.removeFile(path:)` | `environment.fileWriter.removeFile(path:)` |
  /// | `.setDefault(_:for:)` | `environment.defaults.set(_:for:)` (``DefaultsStore``) |
  /// | `.removeDefault(for:)` | `environment.defaults.removeValue(for:)` |
  /// | `.track(event:properties:)` | `environment.events.track(event:properties:)` (``EventLog``); with none configured, the effect fails |
  /// | `.send(request)` | `environment.network.send(request)` (``Network``), in a new task: the effect does not wait for the response |
  /// | `.after(delay, effects)` | `environment.scheduler.schedule(after: delay)`: `effects` are performed once `delay` has passed |
  ///
  /// Given a test environment, it acts on that environment's in-memory doubles, so the
  /// interpreter itself is tested without touching the disk or the console, and the test reads back
  /// what was done:
  ///
  /// ```swift
  /// let environment = Environment.test()
  /// try Interpreter.live(environment: environment).perform([
  ///   .writeFile(path: "/a.txt", contents: Data("hi".utf8)),
  ///   .print("saved"),
  /// ])
  /// #expect(try environment.fileReader.string(atPath: "/a.txt") == "hi")
  /// #expect(environment.printedLines == ["saved"])  // EffectsTestSupport
  /// ```
  ///
  /// The effects of an `.after` run later, so their failure cannot be thrown to the caller of
  /// ``perform(_:)-([E])``: it goes to `onFailure`, whose default writes it to standard error. (This is
  /// true with a scheduler that runs work at once, too.) So does the outcome of a `.send`, which
  /// arrives later: a request that throws (no connection: a `URLError`) fails with that error, and
  /// a response whose status is not in `200..<300` with a ``NetworkStatusError``; the
  /// ``InterpreterError`` names the `.send` effect at index 0.
  ///
  /// - Parameters:
  ///   - environment: where every target comes from (each read when an effect needs it). When
  ///     `nil` (the default), ``Environment/current`` as it is when each effect is performed, as
  ///     for ``live``.
  ///   - onFailure: called with the failure of effects performed later: by `.after`, and the
  ///     requests of `.send`.
  public static func live(
    environment: Environment? = nil,
    onFailure: @escaping @Sendable (InterpreterError<Effect>) -> Void = { writeToStandardError($0) }
  ) -> Self {
    Interpreter { effect in
      try LiveTargets(environment: environment ?? .current, onFailure: onFailure).perform(effect)
    }
  }
}

/// The default `onFailure` of ``Interpreter/live(environment:onFailure:)``:
/// writes the failure to standard error, within ``ReportBudget``.
@usableFromInline
func writeToStandardError(_ failure: InterpreterError<Effect>) {
  FileHandle.standardError.write(Data((ReportBudget.bounded(failureLine(failure)) + "\n").utf8))
}

/// What ``writeToStandardError(_:)`` writes for `failure`.
func failureLine(_ failure: InterpreterError<Effect>) -> String {
  "swift-effects: an effect performed later (by .after or .send) failed; \(failure)"
}

/// What the live interpreter performs effects through.
private struct LiveTargets: Sendable {
  let environment: Environment
  let onFailure: @Sendable (InterpreterError<Effect>) -> Void

  func perform(_ effect: Effect) throws {
    switch effect {
    case .print(let line):
      environment.console.print(line)
    case .writeFile(let path, let contents):
      try environment.fileWriter.writeFile(path: path, contents: contents)
    case .removeFile(let path):
      try environment.fileWriter.removeFile(path: path)
    case .setDefault(let value, let key):
      environment.defaults.set(value, for: key)
    case .removeDefault(let key):
      environment.defaults.removeValue(for: key)
    case .track(let event, let properties):
      let events = environment.events
      if events is UnconfiguredEvents { throw EventLoggingNotConfigured(event: event) }
      events.track(event: event, properties: properties)
    case .send(let request):
      let network = environment.network
      let onFailure = onFailure
      Task {
        do {
          let response = try await network.send(request)
          guard response.isSuccess else { throw NetworkStatusError(request: request, response: response) }
        } catch {
          onFailure(InterpreterError(index: 0, effect: effect, underlying: error, notPerformed: []))
        }
      }
    case .after(let delay, let effects):
      environment.scheduler.schedule(after: delay) { [self] in
        if let failure = Interpreter.firstFailure(in: effects, performing: perform) {
          onFailure(failure)
        }
      }
    }
  }
}

/// The failure of a `.track` effect performed by a live interpreter that has no ``EventLog``.
private struct EventLoggingNotConfigured: Error, CustomStringConvertible {
  let event: String

  var description: String {
    UnconfiguredEvents.refusal(event: event)
  }
}
