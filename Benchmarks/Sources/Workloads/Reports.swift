import Effects
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Reporting a read a test should not have made: a co-effect read from `Environment.unimplemented()`,
// the same line each time. The report walks the stack to place the issue at the line that read, and
// symbolicates it with the binary's debug information. The harness's warm-up iteration takes the
// first report of the process (which reads the line tables); the iterations measured are the
// reports that follow, as in a suite where many tests make the same mistake. Outside a test the
// report is a line on standard error: it goes to /dev/null here.

func reportWorkloads() -> [Workload] {
  [
    Workload("report.read", size: 1, side: "effects", allocations: .varying, body: .sync(effectsReportedRead))
  ]
}

private let unimplemented = Environment.unimplemented()

private func effectsReportedRead() {
  withStandardErrorDiscarded {
    blackHole(unimplemented.clock)
  }
}

/// Runs `body` with file descriptor 2 pointed at /dev/null.
private func withStandardErrorDiscarded(_ body: () -> Void) {
  fflush(nil)
  let saved = dup(2)
  let null = open("/dev/null", O_WRONLY)
  dup2(null, 2)
  body()
  fflush(nil)
  dup2(saved, 2)
  close(null)
  close(saved)
}
