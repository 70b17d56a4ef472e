import Foundation

extension Interpreter where E == Effect {
  /// The interpreter that performs every ``Effect`` for real, through small protocols.
  ///
  /// | effect | performed by |
  /// |---|---|
  /// | `.print(line)` | `console.write(line)` |
  /// | `.writeFile`, `.removeFile` | `files` (``FileWriter``) |
  /// | `.setDefault`, `.removeDefault` | `environment.defaults` |
  /// | `.track` | `events` (``EventLogging``); with none given, the effect fails |
  /// | `.after(delay, effects)` | `environment.scheduler`: `effects` are performed once `delay` has passed |
  ///
  /// ```swift
  /// let interpreter = Interpreter.live(events: AmplitudeEvents())
  /// let square = try interpreter.run(compute(file: "number.txt"))
  /// ```
  ///
  /// Every target can be replaced, so the interpreter itself is tested against in-memory ones:
  ///
  /// ```swift
  /// let files = InMemoryFileSystem()
  /// let interpreter = Interpreter.live(environment: .test(), files: files)
  /// try interpreter.perform([.writeFile(path: "/a.txt", contents: Data("hi".utf8))])
  /// #expect(files.files == ["/a.txt": Data("hi".utf8)])
  /// ```
  ///
  /// The effects of an `.after` run later, so their failure cannot be thrown to the caller of
  /// ``perform(_:)``: it goes to `onFailure`, whose default writes it to standard error. (This is
  /// true with a scheduler that runs work at once, too.)
  ///
  /// - Parameters:
  ///   - environment: where the defaults and the scheduler come from (read when an effect needs
  ///     them). ``Environment/current`` by default.
  ///   - console: where `.print` writes. ``StandardOutput`` by default.
  ///   - files: what `.writeFile` and `.removeFile` change. ``DiskFileSystem`` by default.
  ///   - events: where `.track` logs. None by default: then `.track` fails, naming this parameter.
  ///   - onFailure: called with the failure of effects performed later by `.after`.
  public static func live(
    environment: Environment = .current,
    console: any Console = StandardOutput(),
    files: any FileWriter = DiskFileSystem(),
    events: (any EventLogging)? = nil,
    onFailure: @escaping @Sendable (InterpreterError<Effect>) -> Void = { writeToStandardError($0) }
  ) -> Self {
    let targets = LiveTargets(
      environment: environment,
      console: console,
      files: files,
      events: events,
      onFailure: onFailure
    )
    return Interpreter { try targets.perform($0) }
  }
}

/// The default `onFailure` of ``Interpreter/live(environment:console:files:events:onFailure:)``:
/// writes the failure to standard error.
@usableFromInline
func writeToStandardError(_ failure: InterpreterError<Effect>) {
  FileHandle.standardError.write(Data((failureLine(failure) + "\n").utf8))
}

/// What ``writeToStandardError(_:)`` writes for `failure`.
func failureLine(_ failure: InterpreterError<Effect>) -> String {
  "swift-effects: an effect performed later (by .after) failed; \(failure)"
}

/// What the live interpreter performs effects through.
private struct LiveTargets: Sendable {
  let environment: Environment
  let console: any Console
  let files: any FileWriter
  let events: (any EventLogging)?
  let onFailure: @Sendable (InterpreterError<Effect>) -> Void

  func perform(_ effect: Effect) throws {
    switch effect {
    case .print(let line):
      console.write(line)
    case .writeFile(let path, let contents):
      try files.write(contents, toPath: path)
    case .removeFile(let path):
      try files.removeItem(atPath: path)
    case .setDefault(let key, let value):
      environment.defaults.setValue(value, forKey: key)
    case .removeDefault(let key):
      environment.defaults.setValue(nil, forKey: key)
    case .track(let event, let properties):
      guard let events else { throw EventLoggingNotConfigured(event: event) }
      events.log(name: event, properties: properties)
    case .after(let delay, let effects):
      environment.scheduler.schedule(after: delay) { [self] in
        if let failure = Interpreter.firstFailure(in: effects, performing: perform) {
          onFailure(failure)
        }
      }
    }
  }
}

/// The failure of a `.track` effect performed by a live interpreter that has no ``EventLogging``.
private struct EventLoggingNotConfigured: Error, CustomStringConvertible {
  let event: String

  var description: String {
    "no EventLogging is configured, so the event \(String(reflecting: event)) cannot be logged; "
      + "pass one as Interpreter.live(events:)"
  }
}
