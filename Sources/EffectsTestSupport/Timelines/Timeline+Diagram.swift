import Effects

/// The failure a diagram's `^` stands for (see ``Timeline/init(diagram:tick:fileID:filePath:line:column:)``):
/// one error, equal to itself, so an expected diagram's `^` matches a played one's.
public struct DiagramFailure: Error, Equatable, CustomStringConvertible {
  /// The failure of a diagram.
  public init() {}

  /// `DiagramFailure()`.
  public var description: String {
    "DiagramFailure()"
  }
}

extension Timeline where Element == String {
  /// A timeline drawn as a diagram, one character a tick of `tick` virtual time, from `.zero`:
  ///
  /// | Symbol | Means | Example |
  /// | --- | --- | --- |
  /// | `-` | a tick with nothing | `"a--b"`: `"a"` at 0, `"b"` at 3 ticks |
  /// | any other character | a value of that one character, taking a tick | `"ab"`: `"a"` at 0, `"b"` at 1 tick |
  /// | `'…'` | a value of several characters, taking a tick | `"'pi'-'piz'"` |
  /// | `[…]` | events at one instant, taking a tick together | `"[ab]-c"`: `"a"` and `"b"` at 0, `"c"` at 2 ticks |
  /// | `\|` | the end: finished | `"ab\|"`: finished at 2 ticks |
  /// | `^` | the end: failed, with ``DiagramFailure`` | `"ab^"`: failed at 2 ticks |
  /// | space | nothing, and no time: to line diagrams up | `"a - b"` is `"a-b"` |
  ///
  /// ```swift
  /// let typed = scheduler.sequence(playing: Timeline(diagram: "a-b---c|", tick: .milliseconds(100)))
  /// let queries = TestObserver(observing: typed.debounce(for: .milliseconds(300), clock: clock))
  /// await scheduler.advance(by: .seconds(1))
  /// queries.assertTimeline(Timeline(diagram: "-----b-[c|]", tick: .milliseconds(100)))
  /// ```
  ///
  /// A `^` needs a timeline that can fail with ``DiagramFailure``: a `Timeline<String, any Error>`
  /// (what an observer checks), not a `Timeline<String, Never>` (what a non-throwing input plays).
  ///
  /// A diagram that cannot be read — an unclosed `'` or `[`, a `[` inside a group, a symbol after
  /// the end, a `^` in a timeline that cannot fail — is reported at this call, and read as far as
  /// it goes.
  public init(
    diagram: String,
    tick: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let failure = DiagramFailure() as? Failure
    self.init(
      DiagramReader.read(diagram, tick: tick, canFail: failure != nil, at: callSite)
        .compactMap { instant, token in
          switch token {
          case .value(let value): .value(value, at: instant)
          case .finish: .finished(at: instant)
          case .failure: failure.map { .failed($0, at: instant) }
          }
        }
    )
  }
}

/// Reads a timeline diagram (see ``Timeline/init(diagram:tick:fileID:filePath:line:column:)``).
enum DiagramReader {
  enum Token: Equatable {
    case value(String)
    case finish
    case failure
  }

  /// The events of `diagram`, each at its instant; what cannot be read is reported at `callSite`.
  /// A `^` is a mistake when the timeline cannot fail.
  static func read(
    _ diagram: String,
    tick: Duration,
    canFail: Bool,
    at callSite: CallSite
  ) -> [(instant: Duration, token: Token)] {
    var events: [(instant: Duration, token: Token)] = []
    var problems = ProblemList()
    var ticks: Int64 = 0
    var group: [Token]?
    var quoted: String?
    var ended = false
    // Whether the diagram went past the longest instant it can hold: nothing after is read.
    var overflowed = false

    // The instant of the current tick; nil once `tick * ticks` is past `longest`.
    func instant(at position: Int) -> Duration? {
      if overflowed { return nil }
      // Compared, never negated or multiplied first: a tick of `Duration(attoseconds: .min)` has
      // no negation, and `tick * ticks` is what must not overflow.
      let bound = ticks == 0 ? longest : longest / Int(ticks)
      if ticks == 0 || (tick <= bound && tick >= .zero - bound) { return tick * ticks }
      overflowed = true
      problems.append(
        """
        at character \(position + 1) the diagram reaches \(ticks) × \(tick.spelled), past the longest \
        instant a timeline can hold (\(longest.spelled)); that event and every one after it were dropped
        """
      )
      return nil
    }

    func emit(_ token: Token, at position: Int) {
      if ended {
        problems.append("\(describe(token)) at character \(position + 1) comes after the end, and was dropped")
        return
      }
      if token == .failure, !canFail {
        problems.append(
          """
          '^' at character \(position + 1) is a failure, which a Timeline<String, Never> cannot have, and was \
          dropped (a diagram with '^' is a Timeline<String, any Error>: write its type)
          """
        )
        if group == nil { ticks += 1 }
        return
      }
      if group != nil {
        group?.append(token)
      } else {
        guard let instant = instant(at: position) else { return }
        events.append((instant, token))
        ticks += 1
      }
      if token == .finish || token == .failure { ended = true }
    }

    for (position, character) in diagram.enumerated() {
      if quoted != nil {
        if character == "'" {
          let value = quoted ?? ""
          quoted = nil
          emit(.value(value), at: position)
        } else {
          quoted?.append(character)
        }
        continue
      }
      switch character {
      case " ":
        continue
      case "-":
        if group != nil {
          problems.append("'-' at character \(position + 1) is inside a group, where no time passes; it was ignored")
        } else {
          ticks += 1
        }
      case "'":
        quoted = ""
      case "[":
        if group != nil {
          problems.append("'[' at character \(position + 1) opens a group inside a group; it was ignored")
        } else {
          group = []
        }
      case "]":
        guard let tokens = group else {
          problems.append("']' at character \(position + 1) closes no group; it was ignored")
          continue
        }
        group = nil
        guard let instant = instant(at: position) else { continue }
        for token in tokens { events.append((instant, token)) }
        ticks += 1
      case "|":
        emit(.finish, at: position)
      case "^":
        emit(.failure, at: position)
      default:
        emit(.value(String(character)), at: position)
      }
    }
    if let quoted {
      problems.append("the value '\(quoted) is not closed with a '; it was dropped")
    }
    if let tokens = group {
      problems.append("a group is not closed with ']'; its \(tokens.count) events were played at its instant")
      if let instant = instant(at: diagram.count) {
        for token in tokens { events.append((instant, token)) }
      }
    }
    if tick <= .zero {
      problems.append("the tick is \(tick.spelled); a tick must be longer than zero")
    }
    if !problems.isEmpty {
      reportIssue(
        """
        The timeline diagram \(ReportBudget.quoted(diagram)) cannot be read as written: \
        \(problems.joined).
        """,
        kind: .invalidTimeline,
        at: callSite
      )
    }
    return events
  }

  /// The longest instant a diagram reaches: `Int64.max` seconds (about 292 billion years), as far
  /// as a `Duration` made of seconds goes.
  static let longest = Duration.seconds(Int64.max)

  private static func describe(_ token: Token) -> String {
    switch token {
    case .value(let value): "'\(value)'"
    case .finish: "'|'"
    case .failure: "'^'"
    }
  }
}
