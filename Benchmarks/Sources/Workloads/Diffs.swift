import Effects
import EffectsTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The list diff behind every failure that compares two lists (`assertEffects`, `assertCalls`,
// `assertValues`, `assertRequests`, FeatureTester's effects): two lists of 50,000 entries that
// differ in one, the one in the middle. Its cost is linear in the lists for a few differences;
// the full table of common subsequences it replaced took 4.1 s and 810 MB at 10,000 (release,
// here) and 20 GB at 50,000.

func diffWorkloads() -> [Workload] {
  let entries = 50_000
  let expected = Array(0..<entries)
  var actual = expected
  actual[entries / 2] = -1
  let outcome = Outcome(value: (), effects: actual)
  return [
    Workload("diff", size: entries, side: "effects", body: .sync { diff(outcome, expected) })
  ]
}

/// Fails `assertEffects(of:_:)` on `outcome`. Outside a test the failure — 9 lines — goes to
/// standard error, pointed at /dev/null while it is written, so the run prints nothing.
private func diff(_ outcome: Outcome<Void, Int>, _ expected: [Int]) {
  let standardError = dup(STDERR_FILENO)
  let null = open("/dev/null", O_WRONLY)
  dup2(null, STDERR_FILENO)
  close(null)
  assertEffects(of: outcome, expected)
  dup2(standardError, STDERR_FILENO)
  close(standardError)
}
