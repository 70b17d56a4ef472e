import Effects
import Foundation
import XCTest

/// Whether an XCTest case is running now, as XCTest's observation center tells it — the same on
/// Apple's XCTest and on swift-corelibs-xctest, which both post `testCaseWillStart(_:)` and
/// `testCaseDidFinish(_:)` around every case, on the main thread.
///
/// XCTest says which case runs to no one else: `XCTFail` finds it through a global of XCTest's own,
/// and with none it drops the failure (swift-corelibs-xctest) or pins it on nothing. So test support
/// watches, and sends a failure raised between cases, before the first or after the last, to
/// standard error instead.
///
/// **When it starts watching.** Nothing of this library runs before a test touches it, so the
/// observer is registered the first time something is routed (``TestHost/current``), in an XCTest
/// runner only. That is usually inside a case, whose `testCaseWillStart(_:)` has already been
/// posted: XCTest posts it from `XCTestCaseRun.start()`, before `setUp()` and the test. Until XCTest
/// next says something, the observer cannot know whether a case runs, and answers that one may:
/// the first report of a process comes from a test far more often than from anywhere else, and
/// losing a failure that fails a test would be worse than the rarer error (a report raised before
/// any case, with nothing reported earlier, sent to a case that is not there). The next event
/// settles it: `testCaseDidFinish(_:)` of that first case, or the start of a suite, or the end of
/// the bundle. From then on every case is seen from its start.
///
/// A case running is the process's fact, not a task's: code of an app hosting the tests that runs
/// while a case runs (a timer on the main run loop) is taken for the case's.
final class XCTestCaseObserver: NSObject, XCTestObservation, Sendable {
  /// What XCTest has said since this observer was registered.
  enum Phase: Equatable, Sendable {
    /// Nothing yet: a case may be running, unseen.
    case unknown
    /// The case, by identity, has started and not finished.
    case running(ObjectIdentifier)
    /// No case runs: one finished, or a suite or the bundle started or finished.
    case idle
  }

  /// The observer of this process, registered with XCTest's center when test support loads (see
  /// ``registerAtLoad()``), or else the first time it is asked.
  static let shared = XCTestCaseObserver()

  private let state = Locked(Phase.unknown)
  /// The case that runs now, to record a failure on it at a place of the test's own: XCTest's
  /// `XCTFail` takes only a `StaticString` file, which a read site found on the stack is not.
  private let runningCase = Locked<XCTestCase?>(nil)

  /// What XCTest has said.
  var phase: Phase {
    state.snapshot
  }

  /// Whether an XCTest case may be running now: XCTest said one started and has not said it
  /// finished, or it has said nothing since this observer was first asked (see the type's
  /// discussion). Registers the observer, once.
  var caseMayBeRunning: Bool {
    _ = Self.registration
    return phase != .idle
  }

  /// The case XCTest runs now, when this observer saw it start.
  var currentCase: XCTestCase? {
    runningCase.withLock { $0 }
  }

  /// Registers ``shared`` when the test binary loads, before XCTest starts its first case, so
  /// that every case is seen from its start and every failure can be placed on it. Run from the
  /// binary's initializers (see `registersTheObserverAtLoad`), in an XCTest runner only.
  static func registerAtLoad() {
    guard TestHost.Runner.ofThisProcess == .xcTest else { return }
    _ = registration
  }

  /// Registers ``shared`` with XCTest's observation center, on the main thread: XCTest posts its
  /// events there, and swift-corelibs-xctest keeps its observers in a set with no lock. From another
  /// thread the registration waits for the main queue; until then the phase stays unknown.
  private static let registration: Void = {
    let register: @Sendable () -> Void = {
      MainActor.assumeIsolated { XCTestObservationCenter.shared.addTestObserver(shared) }
    }
    if Thread.isMainThread {
      register()
    } else {
      DispatchQueue.main.async(execute: register)
    }
  }()

  func testBundleWillStart(_ testBundle: Bundle) {
    state.withLock { $0 = .idle }
  }

  func testSuiteWillStart(_ testSuite: XCTestSuite) {
    state.withLock { $0 = .idle }
  }

  func testCaseWillStart(_ testCase: XCTestCase) {
    runningCase.withLock { $0 = testCase }
    state.withLock { $0 = .running(ObjectIdentifier(testCase)) }
  }

  func testCaseDidFinish(_ testCase: XCTestCase) {
    state.withLock { $0 = .idle }
    runningCase.withLock { $0 = nil }
  }

  /// How many failures XCTest has recorded in this process since the observer was registered:
  /// an explored test compares it before and after each run, to stop at the first that failed.
  var failuresRecorded: Int {
    failures.withLock { $0 }
  }

  private let failures = Locked(0)

  // Apple's XCTest tells an observer of an issue, swift-corelibs-xctest of a failure: the same
  // event, in the API each has.
  #if canImport(Darwin)
  func testCase(_ testCase: XCTestCase, didRecord issue: XCTIssue) {
    failures.withLock { $0 += 1 }
  }
  #else
  func testCase(
    _ testCase: XCTestCase,
    didFailWithDescription description: String,
    inFile filePath: String?,
    atLine lineNumber: Int
  ) {
    failures.withLock { $0 += 1 }
  }
  #endif

  func testSuiteDidFinish(_ testSuite: XCTestSuite) {
    state.withLock { $0 = .idle }
  }

  func testBundleDidFinish(_ testBundle: Bundle) {
    state.withLock { $0 = .idle }
  }
}

/// An XCTest case, as a report names it: the case a scope or a test environment was made in, so
/// that a report its work raises after the case ended says whose it is (see ``lateNote``).
struct XCTestCaseOrigin: Sendable, Equatable {
  /// The case, by identity: XCTest keeps every case alive until the run ends.
  var id: ObjectIdentifier
  /// XCTest's name for it: `NotesTests.testSaves` (swift-corelibs-xctest),
  /// `-[NotesTests testSaves]` (Apple's XCTest).
  var name: String

  /// The case running now, in XCTest's runner; nil when none runs (or none was seen to start).
  static var running: Self? {
    guard TestHost.Runner.ofThisProcess == .xcTest, let testCase = XCTestCaseObserver.shared.currentCase else {
      return nil
    }
    return Self(id: ObjectIdentifier(testCase), name: testCase.name)
  }

  /// The case that opened the virtual-time scope the current task belongs to, when it was an
  /// XCTest case. (Nothing here reads the environment: a read can itself be reported, and its
  /// report would come back here.)
  static var ofCurrentWork: Self? {
    guard #available(EffectsVirtualTime , *) else { return nil }
    return VirtualExecutor.scope?.origin
  }

  /// What a report adds when the work that raised it was started by `origin`, a case that is not
  /// the one running: XCTest records a failure only on the running case (or, with none, the report
  /// is a line on standard error), so the text names the case the failure belongs to. Empty when
  /// `origin` is nil or runs now.
  static func lateNote(for origin: Self?) -> String {
    guard let origin else { return "" }
    let running = Self.running
    guard running != origin else { return "" }
    let now = running.map { ", and is recorded on \($0.name), which runs now" } ?? ""
    return """
       (Raised by work that \(origin.name) started and left running: it came after that test had \
      ended\(now).)
      """
  }
}

// Registers the observer when the binary that holds test support loads: a function pointer in the
// section of initializers the loader runs before `main` (ELF's `.init_array`) or when it loads a
// test bundle (Mach-O's `__mod_init_func`). A Swift 6.2 compiler has no `@section` without an
// experimental feature: there the observer is registered the first time a report is routed, and a
// report made before XCTest's next event is placed in its text (see ``XCTestCaseObserver``).
#if compiler(>=6.3)
#if canImport(Darwin)
@used @section("__DATA,__mod_init_func")
private let registersTheObserverAtLoad: @convention(c) () -> Void = { XCTestCaseObserver.registerAtLoad() }
#elseif os(Linux) || os(Android) || os(FreeBSD) || os(OpenBSD)
@used @section(".init_array")
private let registersTheObserverAtLoad: @convention(c) () -> Void = { XCTestCaseObserver.registerAtLoad() }
#endif
#endif
