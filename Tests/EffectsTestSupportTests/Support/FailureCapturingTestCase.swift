import XCTest

/// An XCTest case that captures the failures recorded in it instead of failing, so a test can
/// assert that a helper really fails an XCTest test (`XCTExpectFailure` does not exist on Linux).
class FailureCapturingTestCase: XCTestCase {
  struct Failure: Equatable {
    var message: String
    var file: String
    var line: Int
  }

  private(set) var capturedFailures: [Failure] = []

  #if canImport(Darwin)
  override func record(_ issue: XCTIssue) {
    capturedFailures.append(
      Failure(
        message: issue.compactDescription,
        file: issue.sourceCodeContext.location?.fileURL.path ?? "",
        line: issue.sourceCodeContext.location?.lineNumber ?? 0
      )
    )
  }
  #else
  override func recordFailure(
    withDescription description: String,
    inFile filePath: String,
    atLine lineNumber: Int,
    expected: Bool
  ) {
    capturedFailures.append(Failure(message: description, file: filePath, line: lineNumber))
  }
  #endif
}
