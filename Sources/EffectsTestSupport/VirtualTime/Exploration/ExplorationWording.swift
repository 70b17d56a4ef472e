/// The reports of an explored test.
enum ExplorationWording {
  /// A run failed: its schedule, and the line that replays it.
  static func failingSchedule(
    _ schedule: Schedule,
    run: Int,
    of runs: Int,
    exploring: Exploration,
    workFromOutside: Bool
  ) -> String {
    let text = quoted(schedule.text)
    let earlier =
      switch run {
      case 1: ""
      case 2: " Run 1 passed."
      default: " Runs 1 to \(run - 1) passed."
      }
    return """
      Exploring the order of this test's jobs (\(exploring)) found a failure in run \(run) of \
      \(runs): what failed above failed in the order of schedule \(text).\(earlier) Replay that \
      order, the same every time, while you fix the bug: in place of \(exploring), write
          .replay(\(text))
      as in @Test(.virtualTime(exploring: .replay(…))) or withVirtualTime(exploring: .replay(…)).
      """ + (workFromOutside ? "\n" + outsideNote : "")
  }

  /// Said once, with the failing schedule, when the run had work from outside the scope.
  static let outsideNote = """
    Some of this run's work came from outside the test's scope (reported above: a real sleep, I/O, \
    another thread, an executor of your own). Its order is not chosen by the seed, so a replay may \
    not fail the same way until that work runs on the test's time.
    """

  /// A replayed schedule that the test's jobs no longer fit.
  static func scheduleNoLongerFits(_ recorded: Schedule, now: Schedule, exploring: Exploration) -> String {
    let strategy =
      switch recorded.strategy {
      case .randomWalk: ".randomWalk()"
      case .pct(let depth, _): ".pct(depth: \(depth))"
      }
    let counts =
      recorded.choices == now.choices
      ? "the test made \(now.choices) choices between ready jobs, as recorded, but not the same ones"
      : "it was recorded with \(recorded.choices) choices between ready jobs, and the test now makes \(now.choices)"
    return """
      Schedule \(quoted(recorded.text)) does not fit this test: \(counts). Either the test's jobs \
      have changed since the schedule was found (an await, a task more or less), or the schedule \
      was not copied whole from the report that found it: this run followed another order, and \
      says nothing about the failure the schedule was found with. Copy it again, or explore again \
      to find the order that fails now: .virtualTime(exploring: \(strategy)), or \
      withVirtualTime(exploring: \(strategy)).
      """
  }

  static func malformedSchedule(_ text: String) -> String {
    """
    \(quoted(text)) is not a schedule: .replay(_:) takes the text a failing exploration reported, \
    as "pct2.40-9e3779b97f4a7c15-12-5d0c81f3" or "random-9e3779b97f4a7c15-12-5d0c81f3". Copy it \
    whole from that report. The test ran once, in the default order.
    """
  }

  static func badRuns(_ runs: Int, in exploration: Exploration) -> String {
    """
    \(exploration) cannot run: runs is \(runs), and must be from 1 to \(Exploration.maximumRuns). \
    The test ran once, in the default order.
    """
  }

  static func badDepth(_ depth: Int, in exploration: Exploration) -> String {
    """
    \(exploration) cannot run: depth is \(depth), and must be from 1 to \(Exploration.maximumDepth) \
    (the orderings that must line up for the bug to show: 2 finds most). The test ran once, in \
    the default order.
    """
  }

  /// `text` in quotes, as Swift spells it, cut to a bounded length.
  static func quoted(_ text: String) -> String {
    let limit = 80
    let shown = text.count > limit ? String(text.prefix(limit)) + "…" : text
    // Controls and format characters (a right-to-left override) escaped: shown, never obeyed.
    let escaped = shown.unicodeScalars.map { scalar in
      switch scalar.properties.generalCategory {
      case .control, .format, .lineSeparator, .paragraphSeparator: scalar.escaped(asASCII: true)
      default: scalar.escaped(asASCII: false)
      }
    }
    return "\"" + escaped.joined() + "\""
  }
}
