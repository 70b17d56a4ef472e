import Dispatch
import Effects
import Foundation
import Testing

@testable import EffectsTestSupport

/// The threads of scopes' serial lanes are kept for the next scope: a thread whose work returned
/// runs the next piece, and no more than the pool keeps wait at once.
struct ParkedThreadsTests {
  /// The threads that ran each piece of work (kept, so that no two have one identity), and what
  /// each thread said when its work returned, in order.
  private final class Log: Sendable {
    let threads = Locked<[Thread]>([])
    let parked = Locked<[Bool]>([])
    let returned = DispatchSemaphore(value: 0)
  }

  /// Waits for `count` pieces of work to have returned; a real-time guard that turns a hang into a
  /// failure, never a wait for time to pass.
  private func waitForReturns(_ count: Int, of log: Log) {
    for _ in 0..<count {
      #expect(log.returned.wait(timeout: .now() + .seconds(30)) == .success)
    }
  }

  @Test func aThreadParkedByOneRunRunsTheNext() {
    let log = Log()
    let pool = ParkedThreads(name: "test", keptIdle: 1) { parked in
      log.parked.withLock { $0.append(parked) }
      log.returned.signal()
    }
    for _ in 0..<200 {
      pool.run { log.threads.withLock { $0.append(Thread.current) } }
      waitForReturns(1, of: log)
    }
    #expect(Set(log.threads.snapshot.map(ObjectIdentifier.init)).count == 1)
    #expect(log.parked.snapshot == Array(repeating: true, count: 200))
    #expect(pool.parkedCount == 1)
  }

  @Test func noMoreThreadsParkThanThePoolKeeps() {
    let log = Log()
    let pool = ParkedThreads(name: "test", keptIdle: 1) { parked in
      log.parked.withLock { $0.append(parked) }
      log.returned.signal()
    }
    // Two pieces of work that each wait for the other to have started: two threads at once.
    let (first, second) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    pool.run {
      first.signal()
      _ = second.wait(timeout: .now() + .seconds(30))
    }
    pool.run {
      second.signal()
      _ = first.wait(timeout: .now() + .seconds(30))
    }
    waitForReturns(2, of: log)
    #expect(log.parked.snapshot.sorted { !$0 && $1 } == [false, true])
    #expect(pool.parkedCount == 1)
  }
}
