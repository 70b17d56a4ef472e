import Effects
import EffectsTestSupport
import XCTest

/// The closure form of the trait, `withVirtualTime { scheduler in … }`, from XCTest: the
/// environment is on virtual time, and the scope's end check fails the XCTest test.
final class VirtualTimeScopeXCTests: FailureCapturingTestCase {
  @MainActor func testTheEnvironmentIsOnVirtualTimeInsideTheClosure() async {
    let count = await withVirtualTime { scheduler in
      let ticks = Counter()
      let timer = Environment.current.scheduler.schedule(after: .seconds(1), every: .seconds(1)) {
        MainActor.assumeIsolated { ticks.count += 1 }
      }
      await scheduler.advance(by: .seconds(3))
      timer.cancel()
      return ticks.count
    }
    XCTAssertEqual(count, 3)
  }

  func testLeftoverWorkFailsTheTestAtTheLineThatScheduledIt() async {
    let line = #line + 3
    let failures = await capturingAsyncFailures {
      await withVirtualTime { scheduler in
        _ = scheduler.schedule(after: .seconds(1)) {}
      }
    }
    XCTAssertEqual(failures.map(\.line), [line])
    XCTAssertTrue(failures.first?.message.contains("ended with work scheduled here still pending") == true)
  }
}

@MainActor private final class Counter {
  var count = 0

  nonisolated init() {}
}
