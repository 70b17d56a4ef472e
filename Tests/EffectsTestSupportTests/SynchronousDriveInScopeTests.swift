import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Testing

/// A synchronous `advance` or `run` inside a virtual-time scope cannot wait for the scope's tasks:
/// while the scope has one, each is reported at its line, with the fix. The common way to get one
/// is an `await` forgotten in a closure that Swift then infers synchronous, where the compiler
/// picks the synchronous form without a word. With callbacks only, it drives the scope exactly,
/// and nothing is reported.
@Suite struct SynchronousDriveInScopeTests {
  static func report(_ operation: String, scopeLine: Int, line: Int) -> CapturedIssue {
    CapturedIssue(
      """
      \(operation) is the synchronous form, called inside the withVirtualTime scope opened at \
      EffectsTestSupportTests/SynchronousDriveInScopeTests.swift:\(scopeLine), where it cannot wait for the scope's \
      tasks. Write `await` before it. (In a withVirtualTime { scheduler in … } closure with no other `await`, Swift \
      infers the closure synchronous and picks this form without a word.)
      """,
      line: line
    )
  }

  @Test func aForgottenAwaitInTheClosureIsReportedAtTheAdvance() async {
    let scopeLine = #line + 2
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        Task {}  // a task of the scope, not run yet
        scheduler.advance(by: .seconds(2))  // no `await`: the closure is synchronous
      }
    }.issues
    #expect(issues == [Self.report("TestScheduler.advance(by:)", scopeLine: scopeLine, line: scopeLine + 2)])
  }

  @Test func eachSynchronousDriveOfAScopeWithTasksIsReported() async {
    let scheduler = TestScheduler()
    let scopeLine = #line + 2
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        Task {}
        scheduler.advance()
        scheduler.advance(to: .seconds(1))
        scheduler.run()
      }
    }.issues
    #expect(
      issues == [
        Self.report("TestScheduler.advance(by:)", scopeLine: scopeLine, line: scopeLine + 2),
        Self.report("TestScheduler.advance(to:)", scopeLine: scopeLine, line: scopeLine + 3),
        Self.report("TestScheduler.run()", scopeLine: scopeLine, line: scopeLine + 4),
      ]
    )
  }

  /// In the scope of `@Test(.virtualTime)`, the report names that scope, not a `withVirtualTime`
  /// the test never called.
  @Test func aSynchronousDriveInATraitScopeNamesTheTraitsScope() async throws {
    let test = try #require(Test.current)
    let line = #line + 4
    let issues = try await withCapturedIssues {
      try await VirtualTimeTrait.virtualTime.provideScope(for: test, testCase: Test.Case.current) {
        Task {}
        func forgetsTheAwait() { TestScheduler.current.advance(by: .seconds(1)) }
        forgetsTheAwait()
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          TestScheduler.advance(by:) is the synchronous form, called inside the test's virtual-time scope \
          (@Test(.virtualTime)), where it cannot wait for the scope's tasks. Write `await` before it. (In a \
          withVirtualTime { scheduler in … } closure with no other `await`, Swift infers the closure synchronous \
          and picks this form without a word.)
          """,
          line: line
        )
      ]
    )
  }

  /// A scope with no task — a synchronous test of callbacks under `@Suite(.virtualTime)` — is
  /// driven exactly by the synchronous form: nothing to wait for, nothing reported.
  @Test(.virtualTime) func aScopeWithNoTaskIsDrivenExactlyBySynchronousAdvances() {
    let scheduler = TestScheduler.current
    let ran = Locked(0)
    scheduler.schedule(after: .seconds(1)) { ran.withLock { $0 += 1 } }
    let issues = withCapturedIssues {
      scheduler.advance(by: .seconds(1))
      scheduler.run()
    }.issues
    #expect(issues == [])
    #expect(ran.snapshot == 1)
  }

  /// The report names the cause of what the test then sees: in a synchronous closure, the task it
  /// started has not even reached its sleep, so the advance moves time past it, and the task is
  /// still asleep when the scope ends.
  @Test func aTaskStartedInASynchronousClosureIsNotWaitedFor() async {
    let ran = Locked(false)
    let observed = Locked<Bool?>(nil)
    let scopeLine = #line + 2
    let issues = await withCapturedIssues {
      await withVirtualTime { scheduler in
        Task {
          try await Environment.current.continuousClock.sleep(for: .seconds(1))
          ran.withLock { $0 = true }
        }
        scheduler.advance(by: .seconds(1))  // forgotten `await`
        observed.withLock { $0 = ran.snapshot }
      }
    }.issues
    #expect(observed.snapshot == false)
    #expect(issues.first == Self.report("TestScheduler.advance(by:)", scopeLine: scopeLine, line: scopeLine + 5))
    #expect(issues.count == 2)
    #expect(issues.last?.message.contains("a task sleeping here on environment.continuousClock") == true, "\(issues)")
    #expect(issues.last?.line == scopeLine + 2)
  }

  /// Outside any scope the synchronous form is the right one for callbacks: nothing is reported.
  @Test func outsideAScopeTheSynchronousFormIsSilent() {
    let scheduler = TestScheduler()
    let ran = Locked(false)
    scheduler.schedule(after: .seconds(1)) { ran.withLock { $0 = true } }
    let issues = withCapturedIssues { scheduler.advance(by: .seconds(1)) }.issues
    #expect(issues == [])
    #expect(ran.snapshot)
  }
}
