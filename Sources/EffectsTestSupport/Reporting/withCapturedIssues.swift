package import Effects

/// A failure this library reported inside ``withCapturedIssues(_:)``: its text and the line it
/// points at, and its kind.
///
/// For the library's own tests, which assert the exact text and place of a report without making
/// the run print it as a known issue. Not public: a user proves a report with `withKnownIssue`.
///
/// ```swift
/// let line = #line + 1
/// let issues = withCapturedIssues { spy.assertCalls(count: 2) }.issues
/// #expect(issues == [CapturedIssue(#"Spy "events.track" was called 1 time, expected 2 times: …"#, line: line)])
/// ```
package struct CapturedIssue: Hashable, Sendable, CustomStringConvertible {
  /// The text of the failure.
  package var message: String
  /// `Module/File.swift` of the place the failure points at.
  package var fileID: String
  /// The line the failure points at.
  package var line: Int
  /// The report's kind, which its recorded text ends with (``message`` does not). Not compared:
  /// a test states the text and the line, and asserts the kinds on their own (`issues.map(\.kind)`).
  package var kind: ReportKind?

  /// An issue saying `message` at `line` of `fileID`, by default the calling file.
  package init(_ message: String, fileID: String = #fileID, line: Int, kind: ReportKind? = nil) {
    self.message = message
    self.fileID = fileID
    self.line = line
    self.kind = kind
  }

  package static func == (one: CapturedIssue, other: CapturedIssue) -> Bool {
    (one.message, one.fileID, one.line) == (other.message, other.fileID, other.line)
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(message)
    hasher.combine(fileID)
    hasher.combine(line)
  }

  /// `Module/File.swift:42: message`.
  package var description: String {
    "\(fileID):\(line): \(message)"
  }
}

/// Runs `body`, and answers the failures this library reported while it ran (in its task and the
/// tasks it starts) instead of recording them.
///
/// Failures reported on another thread (a Dispatch callback, the virtual-time lane watchdog) or
/// after `body` returns are recorded as usual, and so are the captured ones if `body` throws:
/// capturing never hides a failure from a test that did not ask for it.
package func withCapturedIssues<R>(
  _ body: () throws -> R
) rethrows -> (result: R, issues: [CapturedIssue]) {
  let capture = IssueCapture()
  do {
    let result = try IssueCapture.$current.withValue(capture, operation: body)
    return (result, capture.close())
  } catch {
    capture.closeAndRecord()
    throw error
  }
}

/// Runs the asynchronous `body`, and answers the failures this library reported while it ran (in
/// its task and the tasks it starts) instead of recording them. See
/// ``withCapturedIssues(_:)``.
package func withCapturedIssues<R>(
  isolation: isolated (any Actor)? = #isolation,
  _ body: () async throws -> R
) async rethrows -> (result: R, issues: [CapturedIssue]) {
  let capture = IssueCapture()
  do {
    let result = try await IssueCapture.$current.withValue(capture, operation: body, isolation: isolation)
    return (result, capture.close())
  } catch {
    capture.closeAndRecord()
    throw error
  }
}

/// The failures one ``withCapturedIssues(_:)`` call keeps; bound as a task-local only by that
/// function, so no other test's failures reach it.
final class IssueCapture: Sendable {
  @TaskLocal static var current: IssueCapture?

  private struct State {
    var kept: [(message: String, kind: ReportKind, location: FailureLocation)] = []
    var isOpen = true
  }

  private let state = Locked(State())

  /// Keeps a failure for the capture bound to the current task, if there is one still open;
  /// answers whether it did.
  static func keep(_ message: String, kind: ReportKind, at location: FailureLocation) -> Bool {
    guard let current else { return false }
    return current.state.withLock { state in
      guard state.isOpen else { return false }
      state.kept.append((message, kind, location))
      return true
    }
  }

  /// Stops capturing (a later failure, from a task that outlived the scope, is recorded as usual),
  /// and answers what was kept.
  ///
  /// Every report the library's own suites raise passes here or fails its test as it is: a report
  /// the library placed in one of its own files (``record(_:at:in:)`` moves it to the test, and
  /// says so) fails the test that captured it, whatever it asserts about the text.
  func close() -> [CapturedIssue] {
    let kept = state.withLock { state in
      state.isOpen = false
      return state.kept
    }
    for misplaced in kept where misplaced.message.hasSuffix(misplacedNote) {
      record(
        """
        withCapturedIssues captured a report that the library would have placed in its own code: \
        \(misplaced.message.prefix(300))
        """,
        kind: .libraryFault,
        at: nil,
        in: TestHost.current.destination(of: .failure)
      )
    }
    return kept.map { CapturedIssue($0.message, fileID: $0.location.fileID, line: $0.location.line, kind: $0.kind) }
  }

  /// Stops capturing and records what was kept, as if there had been no capture.
  func closeAndRecord() {
    let kept = state.withLock { state in
      state.isOpen = false
      return state.kept
    }
    for failure in kept { recordFailure(failure.message, kind: failure.kind, at: failure.location) }
  }
}
