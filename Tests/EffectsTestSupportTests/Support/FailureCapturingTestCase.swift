import Effects
import EffectsTestHelpers
import XCTest

/// An XCTest case that captures the failures recorded inside ``capturingFailures(_:)`` instead of
/// failing, so a test can assert that a helper really fails an XCTest test (`XCTExpectFailure`
/// does not exist on Linux).
///
/// Only failures inside the closure are captured: the test's own `XCTAssert`s, after it, still
/// fail the test, so a case that checks the captured failures can fail itself.
///
/// ```swift
/// let failures = capturingFailures { spy.assertCalls(count: 2) }
/// XCTAssertEqual(failures.map(\.line), [line])
/// ```
class FailureCapturingTestCase: XCTestCase {
  struct Failure: Equatable {
    /// The text recorded, without the kind a report of the library ends with.
    var message: String
    var file: String
    var line: Int
    /// The kind the text ended with. Not compared: a test asserts it on its own
    /// (`failures.map(\.kind)`).
    var kind: ReportKind?

    init(message: String, file: String, line: Int) {
      (self.message, kind) = untagged(message)
      self.file = file
      self.line = line
    }

    static func == (one: Failure, other: Failure) -> Bool {
      (one.message, one.file, one.line) == (other.message, other.file, other.line)
    }
  }

  /// The failures being captured; `nil` outside `capturingFailures`, where failures fail the test.
  private let captured = Locked<[Failure]?>(nil)

  /// Runs `body`, and answers the failures it recorded instead of failing the test with them.
  func capturingFailures(_ body: () throws -> Void) rethrows -> [Failure] {
    captured.withLock { $0 = [] }
    defer { captured.withLock { $0 = nil } }
    try body()
    return captured.snapshot ?? []
  }

  /// Runs the asynchronous `body`, and answers the failures it recorded instead of failing the
  /// test with them.
  func capturingAsyncFailures(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Void
  ) async rethrows -> [Failure] {
    captured.withLock { $0 = [] }
    defer { captured.withLock { $0 = nil } }
    try await body()
    return captured.snapshot ?? []
  }

  /// Keeps `failure` while capturing; answers whether it did.
  private func capture(_ failure: Failure) -> Bool {
    captured.withLock { captured in
      guard captured != nil else { return false }
      captured?.append(failure)
      return true
    }
  }

  #if canImport(Darwin)
  override func record(_ issue: XCTIssue) {
    let location = issue.sourceCodeContext.location
    let failure = Failure(
      message: issue.compactDescription,
      file: location?.fileURL.path ?? "",
      line: location?.lineNumber ?? 0
    )
    if !capture(failure) {
      super.record(issue)
    }
  }
  #else
  override func recordFailure(
    withDescription description: String,
    inFile filePath: String,
    atLine lineNumber: Int,
    expected: Bool
  ) {
    if !capture(Failure(message: description, file: filePath, line: lineNumber)) {
      super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
  }
  #endif
}
