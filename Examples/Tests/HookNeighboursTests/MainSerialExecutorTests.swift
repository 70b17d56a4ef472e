import ConcurrencyExtras
import Effects
import EffectsTestSupport
import Foundation
import Testing

// Exit tests exist on macOS, Linux and Windows only.
#if os(macOS) || os(Linux) || os(Windows)
/// swift-concurrency-extras' `withMainSerialExecutor` sets the concurrency runtime's
/// `swift_task_enqueueGlobal_hook`, the hook a virtual-time scope needs. Mixed in either order, the
/// scope says so in plain words, and it never clears a hook that is not its own. Each case runs in
/// a child process of its own, because the hook is the whole process's and tests run in parallel;
/// what the scope reports there reaches this test through Swift Testing's back channel.
@Suite struct MainSerialExecutorTests {
  @Test func aScopeInsideWithMainSerialExecutorReportsTheHookAndLeavesIt() async throws {
    let issues = Issues()
    // Code inside `#require(processExitsWith:)` takes the line of the macro.
    let line = #line + 2
    try await withKnownIssue {
      _ = try await #require(processExitsWith: .success) {
        await withMainSerialExecutor {
          let scheduler = TestScheduler()
          let ran = await scheduler.withVirtualTime { true }
          // The operation ran, and the other library's hook is still in place.
          guard ran, uncheckedUseMainSerialExecutor else { exit(3) }
        }
        guard !uncheckedUseMainSerialExecutor else { exit(4) }
      }
    } matching: {
      issues.record($0)
    }
    #expect(
      issues.messages == [
        """
        withVirtualTime cannot keep virtual time exact here: another library has set the concurrency runtime's \
        swift_task_enqueueGlobal_hook (swift-concurrency-extras' withMainSerialExecutor sets \
        swift_task_enqueueGlobal_hook), and it stays as that library set it. Do not nest the two: a withVirtualTime \
        scope already runs the scope's tasks one job at a time, main-actor work included. The operation runs without \
        virtual time: scheduled callbacks, advanceSynchronously(by:), recorders and stubs work as everywhere, but \
        an await advance(by:) cannot wait for the tasks it wakes (it reports each one it resumes).
        """
      ]
    )
    #expect(issues.lines == [line])
    #expect(issues.kinds == [.virtualTimeUnavailable])
  }

  @Test func withMainSerialExecutorInsideAScopeIsReportedOnceAndItsHookOutlivesTheScope() async throws {
    let issues = Issues()
    let line = #line + 2
    try await withKnownIssue {
      _ = try await #require(processExitsWith: .success) {
        let scheduler = TestScheduler()
        await scheduler.withVirtualTime {
          await withMainSerialExecutor { () async in }
          // It restores "on" by setting its own hook, not the scope's: the scope's jobs no longer
          // reach it, and the next advance says so (once: the end of the scope does not repeat it).
          await scheduler.advance(by: .zero)
        }
        // Closing the scope left the other library's hook alone.
        guard uncheckedUseMainSerialExecutor else { exit(3) }
        uncheckedUseMainSerialExecutor = false
      }
    } matching: {
      issues.record($0)
    }
    #expect(
      issues.messages == [
        """
        TestScheduler could not keep virtual time exact here: another library replaced the concurrency runtime's \
        swift_task_enqueueGlobal_hook while the scope was open (swift-concurrency-extras' withMainSerialExecutor \
        does, and leaves its own in place when it ends), so the scope's jobs no longer reach it. Do not call \
        withMainSerialExecutor inside a withVirtualTime scope.
        """
      ]
    )
    #expect(issues.lines == [line])
    #expect(issues.kinds == [.inexactTime])
  }
}

/// The issues an exit test's child sent back, in order.
private final class Issues: @unchecked Sendable {
  private let lock = NSLock()
  /// Guarded by `lock`.
  private var recorded: [Issue] = []

  func record(_ issue: Issue) -> Bool {
    lock.withLock { recorded.append(issue) }
    return true
  }

  /// Each issue's text, without the kind a report of swift-effects ends with.
  var messages: [String] {
    lock.withLock {
      recorded.map { issue in
        let text = issue.comments.map(\.rawValue).joined(separator: "\n")
        guard let kind = issue.reportKind else { return text }
        return String(text.dropLast(" [\(kind)]".count))
      }
    }
  }

  var kinds: [ReportKind?] {
    lock.withLock { recorded.map(\.reportKind) }
  }

  var lines: [Int?] {
    lock.withLock { recorded.map { $0.sourceLocation?.line } }
  }
}
#endif
