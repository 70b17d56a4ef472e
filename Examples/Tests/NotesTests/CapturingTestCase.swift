import Effects
import XCTest

/// An `XCTestCase` that can keep the failures a block records instead of failing with them, so a
/// test can assert what a mistake reports, and where: its text, its file and its line. Built on
/// XCTest's public API only, as an app's test target would.
class CapturingTestCase: XCTestCase {
  struct Failure: Hashable {
    /// The failure's text, without the kind a report of swift-effects ends with.
    var message: String
    var file: String
    var line: Int
    /// The kind the text ended with (`[ReportKind.leftoverWork]`), read with the public
    /// `ReportKind(reportText:)`; nil for a failure of anything else.
    var kind: ReportKind?

    init(message: String, file: String, line: Int) {
      let kind = ReportKind(reportText: message)
      var text = Substring(message)
      if let kind {
        while text.last?.isWhitespace == true { text.removeLast() }
        text.removeLast("[\(kind)]".count)
        if text.last == " " || text.last == "\n" { text.removeLast() }
      }
      self.message = String(text)
      self.file = file
      self.line = line
      self.kind = kind
    }
  }

  private var captured: [Failure]?
  private let lock = NSLock()

  /// Runs `body` and answers the failures it recorded.
  func capturingFailures(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Void
  ) async rethrows -> [Failure] {
    lock.withLock { captured = [] }
    try await body()
    return lock.withLock {
      defer { captured = nil }
      return captured ?? []
    }
  }

  private func keep(_ failure: Failure) -> Bool {
    lock.withLock {
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
    if !keep(failure) { super.record(issue) }
  }
  #else
  override func recordFailure(
    withDescription description: String,
    inFile filePath: String,
    atLine lineNumber: Int,
    expected: Bool
  ) {
    if !keep(Failure(message: description, file: filePath, line: lineNumber)) {
      super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
  }
  #endif
}
