/// What a report of this library is about, stable from release to release, for a test that proves
/// a mistake is caught. The text of a report is written for people and may be reworded; its kind
/// is not.
///
/// Every report ends with its kind, as `[ReportKind.leftoverWork]`. Match it rather than the
/// words. In Swift Testing:
///
/// ```swift
/// @Test func aSleepLeftPendingIsReported() async {
///   await withKnownIssue {
///     await withVirtualTime { _ in
///       _ = Task { try await Environment.current.continuousClock.sleep(for: .seconds(5)) }
///     }
///   } matching: { issue in
///     issue.reportKind == .leftoverWork
///   }
/// }
/// ```
///
/// In XCTest on Apple platforms, read the kind from the failure's text:
/// `XCTExpectFailure { … } issueMatcher: { ReportKind(reportText: $0.compactDescription) == .leftoverWork }`.
///
/// A kind names a family of mistakes: each of them also names the line to look at and the fix in
/// its text. A kind added later is a new static member; one is never renamed or removed.
public struct ReportKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The kind's name, as its report ends with it: `leftoverWork`.
  public let rawValue: String

  /// The kind named `rawValue`.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// The kind a report's text ends with, `[ReportKind.leftoverWork]`; nil for a text that does not
  /// end with one (a failure of another library, or of the test's own `#expect`).
  ///
  /// For XCTest, whose failures carry only text:
  /// `ReportKind(reportText: issue.compactDescription)`.
  public init?(reportText: String) {
    // Read from the end, over Unicode scalars: the cost is the tag's length, however long the
    // report, and no Foundation.
    var scalars = Substring(reportText).unicodeScalars
    while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
    guard scalars.last == "]" else { return nil }
    scalars.removeLast()
    let name = scalars.reversed().prefix(while: Self.isNameScalar)
    guard !name.isEmpty else { return nil }
    scalars.removeLast(name.count)
    guard scalars.count >= Self.tagStart.unicodeScalars.count,
      scalars.suffix(Self.tagStart.unicodeScalars.count).elementsEqual(Self.tagStart.unicodeScalars)
    else { return nil }
    self.init(rawValue: String(String.UnicodeScalarView(name.reversed())))
  }

  /// `ReportKind.leftoverWork`.
  public var description: String {
    "ReportKind.\(rawValue)"
  }

  /// What a report ends with: `[ReportKind.leftoverWork]`.
  package var tag: String {
    "\(Self.tagStart)\(rawValue)]"
  }

  /// `report`, ending with this kind: after a space, or on a line of its own when the report has
  /// several.
  package func tagged(_ report: String) -> String {
    report.contains("\n") ? "\(report)\n\(tag)" : "\(report) \(tag)"
  }

  private static let tagStart = "[ReportKind."

  private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
  }
}

// MARK: - Virtual time

extension ReportKind {
  /// A virtual-time scope ended with work it still held: a sleep or a scheduled callback not yet
  /// due, a task not ended, an observer still observing, a tester's effect still running. Each is
  /// reported at the line that started it, and cancelled.
  public static let leftoverWork = ReportKind(rawValue: "leftoverWork")

  /// Virtual time could not stay exact: work reached the scope from outside it (a real sleep, I/O,
  /// an actor with an executor of its own, a thread the scope does not run), so what the test saw
  /// after that line depends on real time.
  public static let inexactTime = ReportKind(rawValue: "inexactTime")

  /// The test itself waited in real time (`Task.sleep`, a real clock) in a virtual-time test,
  /// where time passes only when the test moves it.
  public static let realWaitInTest = ReportKind(rawValue: "realWaitInTest")

  /// The test waited for something asleep on virtual time, which only the test can move: its own
  /// sleep on the scope's clock, or a task it awaits that sleeps past the last advance. The scope
  /// moved time itself (or, for a sleep until the end of virtual time, cancelled the task), so the
  /// wait ended.
  public static let waitedOnVirtualTime = ReportKind(rawValue: "waitedOnVirtualTime")

  /// A virtual-time scope opened inside another one, or twice on one scheduler: it runs in the
  /// scope already open.
  public static let nestedScope = ReportKind(rawValue: "nestedScope")

  /// Work that sleeps on, moves, or asks for a `TestScheduler` outside the scope it belongs to:
  /// another scheduler, a scheduler with no scope open, a scope that has already ended,
  /// `TestScheduler.current` read outside any scope, or a `FeatureTester` made outside one.
  public static let wrongScheduler = ReportKind(rawValue: "wrongScheduler")

  /// The scope's tasks kept running and never all suspended (a loop of `Task.yield()`), work kept
  /// rescheduling itself past `maxRuns`, or a wait for them was cancelled.
  public static let busyScope = ReportKind(rawValue: "busyScope")

  /// An `advance` or `run` called from inside work that another one is running.
  public static let reentrantDrive = ReportKind(rawValue: "reentrantDrive")

  /// Virtual time cannot run on this system: an operating system older than its floor, a runtime
  /// it cannot drive, or the runtime's hooks held by another library. The test runs on real time.
  public static let virtualTimeUnavailable = ReportKind(rawValue: "virtualTimeUnavailable")

  /// A timeline that cannot be read or played as written: a diagram's marks, events out of order,
  /// an instant past the end of virtual time.
  public static let invalidTimeline = ReportKind(rawValue: "invalidTimeline")

  /// An explored test failed in one of the orders it tried: the report names the run and its
  /// schedule, and the line that replays that order (`.replay("…")`).
  public static let failingSchedule = ReportKind(rawValue: "failingSchedule")

  /// A replayed schedule no longer fits the test: its jobs changed since the schedule was found,
  /// so the run followed another order.
  public static let scheduleMismatch = ReportKind(rawValue: "scheduleMismatch")
}

// MARK: - Spies, recorders and the network

extension ReportKind {
  /// Calls a `CallLog` recorded that no assertion verified.
  public static let unverifiedCalls = ReportKind(rawValue: "unverifiedCalls")

  /// A spy called with nothing to answer: no stub for its input, or its script used up.
  public static let unstubbedCall = ReportKind(rawValue: "unstubbedCall")

  /// A stub, a script's outputs, or a tape's exchange that the test set up and the code never
  /// used.
  public static let unusedStub = ReportKind(rawValue: "unusedStub")

  /// A request that matched no stub of a `StubNetwork`, and no exchange of its tape.
  public static let unmatchedRequest = ReportKind(rawValue: "unmatchedRequest")

  /// A tape that cannot be found or played: a name that is no file of the folder of tapes, a file
  /// that does not read as a tape, a test file whose place is unknown.
  public static let tapeUnreadable = ReportKind(rawValue: "tapeUnreadable")

  /// A recording that could not be made or written whole: the live network gave no answer, two
  /// recorders shared a file, a request came after the recording ended, the file could not be
  /// written.
  public static let tapeNotRecorded = ReportKind(rawValue: "tapeNotRecorded")

  /// A recording not written because it would have held a secret: a credential, a token, a
  /// password.
  public static let secretInTape = ReportKind(rawValue: "secretInTape")
}

// MARK: - The environment

extension ReportKind {
  /// Code read the live world in a test: a co-effect with no test environment set, or one kept from
  /// before the test's scope opened.
  public static let liveRead = ReportKind(rawValue: "liveRead")

  /// A test environment was asked for a co-effect it does not provide: one with no `testValue`, one
  /// an unimplemented environment leaves out, or a read-back of one that is not in memory.
  public static let missingTestValue = ReportKind(rawValue: "missingTestValue")

  /// `Environment.bootstrap(_:)` changed nothing: called twice, or after the root was read.
  public static let bootstrapRefused = ReportKind(rawValue: "bootstrapRefused")
}

// MARK: - Features

extension ReportKind {
  /// A step of a `FeatureTester` left the state other than the test said.
  public static let stateMismatch = ReportKind(rawValue: "stateMismatch")

  /// `FeatureTester.receive` found another action than the one expected, or none.
  public static let unexpectedAction = ReportKind(rawValue: "unexpectedAction")

  /// An action an effect fed back that the test did not receive.
  public static let unreceivedAction = ReportKind(rawValue: "unreceivedAction")

  /// Effects a step asked for that the test did not assert.
  public static let unassertedEffects = ReportKind(rawValue: "unassertedEffects")
}

// MARK: - Any API

extension ReportKind {
  /// An assertion the test called found other than it expected: the calls of a spy or a log, the
  /// values of an observer, the effects performed, the requests sent, the work pending.
  public static let assertionFailed = ReportKind(rawValue: "assertionFailed")

  /// An argument outside what an API takes: a negative delay, time moved backwards, an interval
  /// of zero, a string that is not a URL, a name `UserDefaults` refuses, a value that does not
  /// encode.
  public static let invalidArgument = ReportKind(rawValue: "invalidArgument")

  /// An API used where it cannot do its work: an observer of the wrong failure type, a spy's
  /// throwing answer to a call that cannot throw, a check with nothing to check, a latency with
  /// no scheduler to wait on.
  public static let misuse = ReportKind(rawValue: "misuse")
}

extension ReportKind {
  /// A report that the library itself went wrong: one it would have placed in its own code, which
  /// it places at the test instead. Not for matching: the fix is the library's.
  package static let libraryFault = ReportKind(rawValue: "libraryFault")
}
