import Effects
import EffectsTestSupport
import XCTest

/// Proves the effect assertions fail an XCTest test too, not only a Swift Testing one.
///
/// The failures are captured instead of recorded, so this case passes when they happen and fails
/// when they don't.
final class AssertEffectsXCTests: FailureCapturingTestCase {
  func testAssertEffectsOfAnOutcomeFailsAnXCTestTest() {
    let line = #line + 2
    let failures = capturingFailures {
      assertEffects(of: Outcome(value: 1, effects: [Effect.print("a")]), [.print("b")])
    }

    XCTAssertEqual(failures.count, 1)
    XCTAssertEqual(failures.first?.line, line)
    XCTAssertTrue(
      failures.first?.message.contains(#"~ [0] print("b")   (expected)"#) == true,
      "\(failures)"
    )
  }

  func testARecordingInterpretersAssertionFailsAnXCTestTest() throws {
    let recorder = RecordingInterpreter<Effect>()
    try recorder.interpreter.perform([.print("unexpected")])
    let line = #line + 1
    let failures = capturingFailures { recorder.assertEffects([]) }

    XCTAssertEqual(failures.count, 1)
    XCTAssertEqual(failures.first?.line, line)
    XCTAssertTrue(
      failures.first?.message.contains("RecordingInterpreter effects differ: got 1, expected 0") == true,
      "\(failures)"
    )
  }

  func testPassingAssertionsRecordNothing() throws {
    let recorder = RecordingInterpreter<Effect>()
    try recorder.interpreter.perform([.print("expected")])
    let failures = capturingFailures {
      recorder.assertEffects([.print("expected")])
      assertEffects(of: Outcome(value: 1, effects: [Effect.print("a")]), [.print("a")])
    }
    XCTAssertTrue(failures.isEmpty, "\(failures)")
  }
}
