import Effects
import EffectsTestSupport
import XCTest

/// Proves the effect assertions fail an XCTest test too, not only a Swift Testing one.
///
/// The failures are captured instead of recorded, so this case passes when they happen and fails
/// when they don't.
final class AssertEffectsXCTests: FailureCapturingTestCase {
  func testAssertEffectsOfAnOutcomeFailsAnXCTestTest() {
    let line = #line + 1
    assertEffects(of: Outcome(value: 1, effects: [Effect.print("a")]), [.print("b")])

    XCTAssertEqual(capturedFailures.count, 1)
    XCTAssertEqual(capturedFailures.first?.line, line)
    XCTAssertTrue(
      capturedFailures.first?.message.contains(#"~ [0] print("b")   (expected)"#) == true,
      "\(capturedFailures)"
    )
  }

  func testARecordingInterpretersAssertionFailsAnXCTestTest() throws {
    let recorder = RecordingInterpreter<Effect>()
    try recorder.interpreter.perform([.print("unexpected")])
    let line = #line + 1
    recorder.assertEffects([])

    XCTAssertEqual(capturedFailures.count, 1)
    XCTAssertEqual(capturedFailures.first?.line, line)
    XCTAssertTrue(
      capturedFailures.first?.message.contains("recorded effects did not match") == true,
      "\(capturedFailures)"
    )
  }

  func testPassingAssertionsRecordNothing() throws {
    let recorder = RecordingInterpreter<Effect>()
    try recorder.interpreter.perform([.print("expected")])
    recorder.assertEffects([.print("expected")])
    assertEffects(of: Outcome(value: 1, effects: [Effect.print("a")]), [.print("a")])
    XCTAssertTrue(capturedFailures.isEmpty, "\(capturedFailures)")
  }
}
