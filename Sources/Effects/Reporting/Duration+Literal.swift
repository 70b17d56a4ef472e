extension Duration {
  /// The duration as Swift code writes it, in the largest unit that states it exactly:
  /// `.seconds(3)`, `.milliseconds(300)`, `.nanoseconds(1)`.
  ///
  /// The one way the library renders a duration — in effect descriptions, failure messages and
  /// recorded calls — so what a message says can be pasted into a test (`advance(by:
  /// .milliseconds(300))`), and is never rounded (`0.30000000000000004 seconds`).
  ///
  /// A duration past what `components` holds (more than `Int64` seconds either way, which only
  /// arithmetic on durations reaches: `.seconds(Int64.max) * 10`) is spelled by the bound it is
  /// past, `more than .seconds(9223372036854775807)`: a description never traps.
  package var literal: String {
    if self < .seconds(Int64.min) { return "less than .seconds(\(Int64.min))" }
    if self >= .seconds(Int64.max) + .seconds(1) { return "more than .seconds(\(Int64.max))" }
    let (seconds, attoseconds) = components
    if attoseconds == 0 { return ".seconds(\(seconds))" }
    let units: [(name: String, attoseconds: Int64, perSecond: Int64)] = [
      ("milliseconds", 1_000_000_000_000_000, 1_000),
      ("microseconds", 1_000_000_000_000, 1_000_000),
      ("nanoseconds", 1_000_000_000, 1_000_000_000),
    ]
    for unit in units where attoseconds % unit.attoseconds == 0 {
      let (whole, overflowed) = seconds.multipliedReportingOverflow(by: unit.perSecond)
      let (total, overflowedAgain) = whole.addingReportingOverflow(attoseconds / unit.attoseconds)
      if !overflowed && !overflowedAgain { return ".\(unit.name)(\(total))" }
    }
    return "Duration(secondsComponent: \(seconds), attosecondsComponent: \(attoseconds))"
  }
}
