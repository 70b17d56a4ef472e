/// The texts of Linux's `/proc` files that ``Platform`` reads on Linux, parsed. Pure functions of
/// text, compiled on every OS, so that their tests run everywhere; only `Platform+Linux.swift`
/// reads the files. The formats are proc(5)'s.
enum ProcFS {
  /// The state of the thread or process whose `stat` file reads `stat`
  /// (`/proc/<pid>/stat`, `/proc/self/task/<tid>/stat`).
  ///
  /// The file is `pid (comm) state …`. The command name may hold spaces and parentheses, so the
  /// state is the first letter after the last `)`. The letters: `R` running; `S` sleeping and `D`
  /// in an uninterruptible (disk) sleep, both asleep in the kernel; `T` stopped by a signal and
  /// `t` stopped by a tracer (a debugger) at a stop; anything else — `Z` zombie, `X` dead, `I`
  /// idle kernel thread — or a text that does not parse, unknown.
  static func threadState(stat: String) -> Platform.ThreadState {
    guard let close = stat.lastIndex(of: ")") else { return .unknown }
    switch stat[stat.index(after: close)...].drop(while: { $0 == " " }).first {
    case "R": return .running
    case "S", "D": return .waiting
    case "T", "t": return .stopped
    default: return .unknown
    }
  }

  /// The id of the process tracing the one whose `status` file reads `status` (its
  /// `TracerPid:` line): 0 when none is, nil when the text has no such line.
  static func tracerPID(status: String) -> Int? {
    for line in status.split(separator: "\n") where line.hasPrefix("TracerPid:") {
      return Int(line.dropFirst("TracerPid:".count).drop(while: \.isWhitespace))
    }
    return nil
  }
}
