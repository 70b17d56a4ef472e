import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Testing

/// The synchronous forms have their own names (`advanceSynchronously`, `runSynchronously`) and are
/// `noasync`, so a closure that forgets its `await` does not compile, and async code cannot call
/// them at all. Called from synchronous code inside a scope, they run the scope's callbacks
/// exactly and wait for no task.
@Suite struct SynchronousDriveInScopeTests {
  /// A scope with no task — a synchronous test of callbacks under `@Suite(.virtualTime)` — is
  /// driven exactly by the synchronous form: nothing to wait for, nothing reported.
  @Test(.virtualTime) func aScopeWithNoTaskIsDrivenExactlyBySynchronousAdvances() {
    let scheduler = TestScheduler.current
    let ran = Locked(0)
    scheduler.schedule(after: .seconds(1)) { ran.withLock { $0 += 1 } }
    let issues = withCapturedIssues {
      scheduler.advanceSynchronously(by: .seconds(1))
      scheduler.runSynchronously()
    }.issues
    #expect(issues == [])
    #expect(ran.snapshot == 1)
  }

  /// A task the scope started has not even reached its sleep when a synchronous advance runs, so
  /// the advance moves time past it; the task is still asleep when the scope ends, and that is
  /// what is reported, at the line of its sleep.
  @Test func aSynchronousAdvanceDoesNotWaitForTheScopesTasks() async {
    let ran = Locked(false)
    let observed = Locked<Bool?>(nil)
    let scopeLine = #line + 2
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        Task {
          try await Environment.current.continuousClock.sleep(for: .seconds(1))
          ran.withLock { $0 = true }
        }
        // Only synchronous code can call it (it is `noasync`): a helper a test calls, say.
        func advanceFromSynchronousCode() { scheduler.advanceSynchronously(by: .seconds(1)) }
        advanceFromSynchronousCode()
        observed.withLock { $0 = ran.snapshot }
      }
    }.issues
    #expect(observed.snapshot == false)
    #expect(issues.count == 1)
    #expect(issues.last?.message.contains("a task sleeping here on environment.continuousClock") == true, "\(issues)")
    #expect(issues.last?.line == scopeLine + 2)
  }

  /// Outside any scope the synchronous form is the right one for callbacks: nothing is reported.
  @Test func outsideAScopeTheSynchronousFormIsSilent() {
    let scheduler = TestScheduler()
    let ran = Locked(false)
    scheduler.schedule(after: .seconds(1)) { ran.withLock { $0 = true } }
    let issues = withCapturedIssues { scheduler.advanceSynchronously(by: .seconds(1)) }.issues
    #expect(issues == [])
    #expect(ran.snapshot)
  }
}
