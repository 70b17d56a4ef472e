import Effects
import EffectsTestHelpers
import EffectsTestSupport
import XCTest

/// An XCTest failure of the library ends with its kind, as a Swift Testing issue does: a test
/// reads it with `ReportKind(reportText:)` (on Apple platforms, in `XCTExpectFailure`'s matcher).
final class ReportKindXCTests: FailureCapturingTestCase {
  func testAFailureEndsWithItsKindAtTheLineThatCausedIt() {
    let fetch = Spy<Int, String>("fetch")
    let line = #line + 1
    let failures = capturingFailures { _ = try? fetch(42) }

    XCTAssertEqual(failures.map(\.line), [line])
    XCTAssertEqual(failures.map(\.kind), [.unstubbedCall])
    XCTAssertEqual(
      failures.map(\.message),
      [
        """
        Spy "fetch" was called with 42, but it has no stub. Stub it in the test with stub(returning:), \
        stub(throwing:), stub { input in … } or stub(script:).
        """
      ]
    )
  }

  func testAReadOfAMissingCoeffectIsMissingTestValue() {
    let environment = Environment.unimplemented()
    let failures = capturingFailures { _ = environment.clock }
    XCTAssertEqual(failures.map(\.kind), [.missingTestValue])
  }

  func testALeftoverOfAScopeIsLeftoverWork() async {
    let failures = await capturingAsyncFailures {
      await withVirtualTime { _ in
        _ = Task { try await Environment.current.continuousClock.sleep(for: .seconds(5)) }
      }
    }
    XCTAssertEqual(failures.map(\.kind), [.leftoverWork])
  }
}
