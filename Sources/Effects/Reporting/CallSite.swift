/// A place in source code, kept so that a failure can point at it: where work was scheduled, where
/// a test made its environment, where an assertion was called.
///
/// Failure messages name it (`"scheduled at AppTests/SearchTests.swift:42"`), and test support
/// reports issues *at* it, so Xcode and `swift test` point at the line that caused the problem.
///
/// Every API that can report takes the caller's location the same way: four trailing parameters,
/// `fileID`, `filePath`, `line` and `column`, defaulted to `#fileID`, `#filePath`, `#line` and
/// `#column`, which it keeps as a `CallSite`. Pass them on to forward a location from a helper of
/// your own. Only protocol requirements, which cannot default them, take a `CallSite` itself
/// (`at:`): ``WorkScheduler``'s requirements do, and its extension methods fill one in for you:
///
/// ```swift
/// scheduler.schedule(after: .seconds(1)) { refresh() }  // CallSite of this line, implicitly
/// ```
///
/// A scheduler of your own that wraps another passes the `callSite` it was given on, so reports
/// still point at the line that scheduled:
///
/// ```swift
/// func schedule(after delay: Duration, at callSite: CallSite, _ action: @escaping @Sendable () -> Void) -> ScheduledWork {
///   base.schedule(after: delay, at: callSite, action)
/// }
/// ```
///
/// A test helper of your own forwards the four parameters, so the failure points at its caller:
///
/// ```swift
/// func assertSavedOnce(
///   _ save: Spy<String, Void>,
///   fileID: StaticString = #fileID, filePath: StaticString = #filePath,
///   line: UInt = #line, column: UInt = #column
/// ) {
///   save.assertCalls(count: 1, fileID: fileID, filePath: filePath, line: line, column: column)
/// }
/// ```
///
/// (Named `CallSite` so it never collides with Swift Testing's `SourceLocation`.)
public struct CallSite: Hashable, Sendable, CustomStringConvertible {
  /// The file's `#fileID`: `Module/File.swift`.
  public let fileID: StaticString
  /// The file's full `#filePath`, which XCTest needs to place a failure.
  public let filePath: StaticString
  /// The line.
  public let line: UInt
  /// The column.
  public let column: UInt

  /// Captures the caller's location (or the one passed in).
  package init(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// `Module/File.swift:42`.
  public var description: String {
    "\(fileID):\(line)"
  }

  public static func == (lhs: CallSite, rhs: CallSite) -> Bool {
    lhs.line == rhs.line && lhs.column == rhs.column
      && lhs.fileID.description == rhs.fileID.description && lhs.filePath.description == rhs.filePath.description
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(fileID.description)
    hasher.combine(filePath.description)
    hasher.combine(line)
    hasher.combine(column)
  }
}
