import Effects
import Foundation
import Testing

/// Whether exact virtual time works on this OS and runtime, and what a scope says where it
/// does not, or where part of it is not checked.
///
/// Exact virtual time needs, in order:
/// 1. the executor APIs of SE-0417 (`TaskExecutor`, `runSynchronously(on:)`): macOS 15, iOS 18,
///    tvOS 18, watchOS 11, visionOS 2 (`EffectsVirtualTime` in Package.swift);
/// 2. the runtime's hooks, `swift_task_getMainExecutor_hook` above all, first in the Swift 6.1
///    runtime: macOS 15.4, iOS 18.4, tvOS 18.4, watchOS 11.4, visionOS 2.4. Looked up by name, so
///    the answer is the loaded runtime's, whatever the OS version says;
/// 3. no other library holding those hooks.
///
/// Where one is missing, the scope says so once, at its line, and its operation runs without
/// virtual time (reported, never silently inexact). Two things degrade without stopping a scope,
/// and each is said once per process, as a warning: a task layout this library cannot read (the
/// end of a scope then no longer checks for tasks that did not end), and a runtime whose
/// `Task.sleep` bypasses the delay hooks in a build without the detector that replaces them.
enum VirtualTimeAvailability {
  /// What still works where a scope cannot run: the tail of every such report.
  static let whatStillWorks = """
    The operation runs without virtual time: scheduled callbacks, advanceSynchronously(by:), \
    recorders and stubs work as everywhere, but an await advance(by:) cannot wait for the tasks \
    it wakes (it reports each one it resumes).
    """

  /// The report of a scope that could not open, for `reason` (why, and what to change).
  static func cannotOpen(_ reason: String) -> String {
    "withVirtualTime cannot keep virtual time exact here: \(reason). \(whatStillWorks)"
  }

  /// Why a scope cannot open on this OS: it is older than `EffectsVirtualTime`.
  static var operatingSystemTooOld: String {
    cannotOpen(
      """
      it needs macOS 15.4, iOS 18.4, tvOS 18.4, watchOS 11.4 or visionOS 2.4 or later, and this is \
      \(Platform.operatingSystem). Run virtual-time tests on a newer OS or simulator
      """
    )
  }

  /// The report for a runtime that lacks something a scope needs (`reason` names it).
  static func runtimeUnavailable(_ reason: String) -> String {
    cannotOpen(
      """
      \(reason); exact virtual time needs the Swift 6.1 concurrency runtime or later (macOS 15.4, \
      iOS 18.4, tvOS 18.4, watchOS 11.4, visionOS 2.4). Run virtual-time tests on a newer OS or simulator
      """
    )
  }

  /// The report for a runtime newer than this library knows (`reason` names what differs).
  static func unknownRuntime(_ reason: String) -> String {
    cannotOpen(
      """
      \(reason). This version of swift-effects does not know this runtime's layout, so it cannot own the \
      scope's tasks safely: update swift-effects (this runtime is newer than the ones it was checked on)
      """
    )
  }

  /// The report for hooks another library holds (`hooks` names them).
  static func heldByAnotherLibrary(_ hooks: [String]) -> String {
    cannotOpen(
      """
      another library has set the concurrency runtime's \(hooks.joined(separator: ", ")) \
      (swift-concurrency-extras' withMainSerialExecutor sets swift_task_enqueueGlobal_hook), and it \
      stays as that library set it. Do not nest the two: a withVirtualTime scope already runs the \
      scope's tasks one job at a time, main-actor work included
      """
    )
  }

  /// The report of an open scope whose hooks another library replaced (`hooks` names them).
  static func replaced(_ hooks: [String]) -> String {
    """
    another library replaced the concurrency runtime's \(hooks.joined(separator: ", ")) while the \
    scope was open (swift-concurrency-extras' withMainSerialExecutor does, and leaves its own in \
    place when it ends), so the scope's jobs no longer reach it. Do not call withMainSerialExecutor \
    inside a withVirtualTime scope
    """
  }

  /// The warning for a task layout this library cannot read.
  static let taskStatusUnreadable = """
    withVirtualTime cannot read task status on this concurrency runtime (its task layout is not one \
    this library knows), so the end of a scope no longer reports unstructured tasks that did not end, \
    nor tasks that ignore cancellation. Work left on the TestScheduler is still reported. Said once \
    per test process.
    """

  /// The warning for a runtime whose `Task.sleep` the scope cannot see.
  static let realSleepsUnseen = """
    withVirtualTime cannot see real sleeps here: on this concurrency runtime (Swift 6.3 and later: \
    macOS, iOS, tvOS, watchOS and visionOS 26.4) Task.sleep no longer passes the delay hooks, and \
    this build, made with a Swift compiler older than 6.3, lacks the detector that replaces them. A \
    Task.sleep in code under test still waits in real time, but is not reported. Build the tests \
    with Swift 6.3 or later to have them reported. Said once per test process.
    """

  /// Warnings said once per process (by their text), or once per forced test.
  private static let warned = Locked<Set<String>>([])

  /// Says `message` once per process, as a warning of `kind` of the running test at `site` (a line
  /// on standard error where no Swift Testing test runs).
  static func warnOnce(_ message: String, kind: ReportKind, at site: FailureLocation) {
    let message = ReportBudget.bounded(message)
    let warned = RuntimeDoor.forced?.warned ?? Self.warned
    guard warned.withLock({ $0.insert(message).inserted }) else { return }
    let location = site
    if IssueCapture.keep(message, kind: kind, at: location) { return }
    let tagged = ReportBudget.bounded(kind.tagged(message))
    guard Test.current != nil else {
      warn(tagged)
      return
    }
    Issue.record(
      Comment(rawValue: tagged),
      severity: .warning,
      sourceLocation: SourceLocation(
        fileID: location.fileID,
        filePath: location.filePath,
        line: location.line,
        column: location.column
      )
    )
  }
}
