import Effects
import EffectsTestSupport
import XCTest

/// Proves the effect assertions fail an XCTest test too, not only a Swift Testing one.
///
/// The failures are captured instead of recorded, so this case passes when they happen and fails
/// when they don't.
final class AssertEffectsXCTests: XCTestCase {
  private var failures: [(message: String, line: Int)] = []

  #if canImport(ObjectiveC)
  override func record(_ issue: XCTIssue) {
    failures.append((issue.compactDescription, issue.sourceCodeContext.location?.lineNumber ?? 0))
  }
  #else
  override func recordFailure(
    withDescription description: String,
    inFile filePath: String,
    atLine lineNumber: Int,
    expected: Bool
  ) {
    failures.append((description, lineNumber))
  }
  #endif

  func testAssertEffectsOfAnOutcomeFailsAnXCTestTest() {
    let line = #line + 1
    assertEffects(of: Outcome(value: 1, effects: [Effect.print("a")]), [.print("b")])

    XCTAssertEqual(failures.count, 1)
    XCTAssertEqual(failures.first?.line, line)
    XCTAssertTrue(failures.first?.message.contains(#"~ [0] print("b")   (expected)"#) == true, "\(failures)")
  }

  func testARecordingInterpretersAssertionFailsAnXCTestTest() throws {
    let recorder = RecordingInterpreter<Effect>()
    try recorder.interpreter.perform([.print("unexpected")])
    let line = #line + 1
    recorder.assertEffects([])

    XCTAssertEqual(failures.count, 1)
    XCTAssertEqual(failures.first?.line, line)
    XCTAssertTrue(failures.first?.message.contains("recorded effects did not match") == true, "\(failures)")
  }

  func testPassingAssertionsRecordNothing() throws {
    let recorder = RecordingInterpreter<Effect>()
    try recorder.interpreter.perform([.print("expected")])
    recorder.assertEffects([.print("expected")])
    assertEffects(of: Outcome(value: 1, effects: [Effect.print("a")]), [.print("a")])
    XCTAssertTrue(failures.isEmpty, "\(failures)")
  }
}
