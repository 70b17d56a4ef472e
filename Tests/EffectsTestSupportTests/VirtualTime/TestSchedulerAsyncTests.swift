import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

@Suite struct TestSchedulerAsyncTests {
  @Test func aSleeperResumesExactlyAtItsDeadline() async throws {
    let scheduler = TestScheduler()
    let woke = Recorder<Duration>()
    try await scheduler.withVirtualTime {
      let task = Task {
        try await scheduler.sleep(for: .seconds(1))
        woke.append(scheduler.elapsed)
      }
      await scheduler.advance(by: .milliseconds(999))
      #expect(woke.values == [])
      #expect(scheduler.pending.map(\.kind) == [.sleep])
      await scheduler.advance(by: .milliseconds(1))
      #expect(woke.values == [.seconds(1)])
      try await task.value
      scheduler.assertNoPendingWork()
    }
  }

  @Test func awaitingANegativeAdvanceIsReportedByItsAsyncName() async {
    let scheduler = TestScheduler()
    await scheduler.withVirtualTime {
      let line = #line + 1
      let issues = await withCapturedIssues { await scheduler.advance(by: .seconds(-1)) }.issues
      #expect(
        issues == [
          CapturedIssue(
            """
            await TestScheduler.advance(by:) cannot move time backwards: got .seconds(-1). Pass .zero or a positive \
            duration.
            """,
            line: line
          )
        ]
      )
      #expect(scheduler.elapsed == .zero)
    }
  }

  @Test func aNegativeSleepIsReportedAtItsLineAndCountsAsZero() async {
    let scheduler = TestScheduler()
    let woke = Recorder<Duration>()
    let sleepLine = #line + 4
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        Task {
          try await scheduler.sleep(for: .milliseconds(-5))
          woke.append(scheduler.elapsed)
        }
        await scheduler.advance()
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          TestScheduler.sleep(for:) got a negative delay, .milliseconds(-5), and counts it as zero. Pass .zero or \
          more.
          """,
          line: sleepLine
        )
      ]
    )
    #expect(woke.values == [.zero])
  }

  @Test func aTaskStartedJustBeforeAdvanceIsAlwaysResumedByIt() async {
    for _ in 0..<200 {
      let scheduler = TestScheduler()
      let woke = Recorder<String>()
      await scheduler.withVirtualTime {
        Task {
          try await scheduler.sleep(for: .seconds(1))
          woke.append("woke")
        }
        await scheduler.advance(by: .seconds(1))
        #expect(woke.values == ["woke"])
      }
    }
  }

  @Test func workAfterTheSleepRunsToTheNextSuspensionBeforeAdvanceReturns() async {
    let scheduler = TestScheduler()
    let steps = Recorder<String>()
    let counter = Counter()
    await scheduler.withVirtualTime {
      Task {
        try await scheduler.sleep(for: .seconds(1))
        await counter.increment()  // an actor call
        async let child = counter.increment()  // a child task
        _ = await child
        await withTaskGroup(of: Void.self) { group in
          for _ in 0..<3 { group.addTask { _ = await counter.increment() } }
        }
        steps.append("counted \(await counter.value)")
        try await scheduler.sleep(for: .seconds(1))
        steps.append("slept again")
      }
      await scheduler.advance(by: .seconds(1))
      #expect(steps.values == ["counted 5"])
      #expect(scheduler.pending.map(\.offset) == [.seconds(2)])
      await scheduler.advance(by: .seconds(1))
      #expect(steps.values == ["counted 5", "slept again"])
    }
  }

  @Test func sleepersInATaskGroupWakeInDeadlineOrder() async {
    let scheduler = TestScheduler()
    let woke = Recorder<String>()
    await scheduler.withVirtualTime {
      Task {
        await withTaskGroup(of: Void.self) { group in
          for second in [3, 1, 2] {
            group.addTask {
              try? await scheduler.sleep(for: .seconds(second))
              woke.append("\(second)")
            }
          }
        }
        woke.append("group done")
      }
      await scheduler.advance(by: .seconds(1))
      #expect(woke.values == ["1"])
      await scheduler.advance(by: .seconds(1))
      #expect(woke.values == ["1", "2"])
      await scheduler.advance(by: .seconds(1))
      #expect(woke.values == ["1", "2", "3", "group done"])
    }
  }

  @Test func cancellingASleepingTaskThrowsAndRemovesTheSleeper() async {
    let scheduler = TestScheduler()
    let outcome = Recorder<String>()
    await scheduler.withVirtualTime {
      let task = Task {
        do {
          try await scheduler.sleep(for: .seconds(10))
          outcome.append("woke")
        } catch is CancellationError {
          outcome.append("cancelled")
        } catch {
          outcome.append("other error")
        }
      }
      await scheduler.advance()
      #expect(scheduler.pending.map(\.kind) == [.sleep])
      task.cancel()
      await task.value
      #expect(outcome.values == ["cancelled"])
      #expect(scheduler.pending == [])
      await scheduler.advance(by: .seconds(20))
      #expect(outcome.values == ["cancelled"])
    }
  }

  @Test func aTaskCancelledBeforeItSleepsThrowsAndLeavesNothingPending() async {
    let scheduler = TestScheduler()
    await scheduler.withVirtualTime {
      let task = Task { try await scheduler.sleep(for: .seconds(1)) }
      task.cancel()
      let result = await task.result
      #expect(throws: CancellationError.self) { try result.get() }
      #expect(scheduler.pending == [])
    }
  }

  /// Sleepers' places are reused as they wake and are cancelled: a cancelled sleeper must never
  /// take a later sleeper's place with it, nor a woken one be woken twice.
  @Test func sleepersWokenAndCancelledInTurnsKeepTheirOwnOutcomes() async {
    for _ in 0..<200 {
      let scheduler = TestScheduler()
      let outcomes = Recorder<String>()
      await scheduler.withVirtualTime {
        var tasks: [Task<Void, Never>] = []
        for index in 0..<20 {
          tasks.append(
            Task {
              do {
                try await scheduler.sleep(for: .milliseconds(index % 5 + 1))
                outcomes.append("woke \(index)")
              } catch {
                outcomes.append("cancelled \(index)")
              }
            }
          )
        }
        await scheduler.advance()
        #expect(scheduler.pending.count == 20)
        for index in stride(from: 1, to: 20, by: 2) { tasks[index].cancel() }
        for task in tasks { if task.isCancelled { await task.value } }
        await scheduler.advance(by: .milliseconds(2))
        // Sleep again in the places just freed, then cancel those too.
        let second = (0..<10).map { index in
          Task {
            do {
              try await scheduler.sleep(for: .milliseconds(10))
              outcomes.append("woke again \(index)")
            } catch {
              outcomes.append("cancelled again \(index)")
            }
          }
        }
        await scheduler.advance()
        for task in second.prefix(5) { task.cancel() }
        for task in second.prefix(5) { await task.value }
        await scheduler.advance(by: .milliseconds(20))
        for task in tasks + second { await task.value }
      }
      let expected =
        Set((0..<20).map { $0 % 2 == 1 ? "cancelled \($0)" : "woke \($0)" })
        .union((0..<10).map { $0 < 5 ? "cancelled again \($0)" : "woke again \($0)" })
      #expect(Set(outcomes.values) == expected)
      #expect(outcomes.values.count == 30, "each sleeper ends exactly once")
      #expect(scheduler.pending == [])
    }
  }

  @Test func threeLoopingSleepersAreDeterministic() async {
    for _ in 0..<500 {
      let scheduler = TestScheduler()
      let counter = Counter()
      let wakes = Recorder<String>()
      // The loops sleep forever: the test leaves them behind on purpose.
      await scheduler.withVirtualTime(leftoverWork: .expected) {
        for (name, period) in [("a", 100), ("b", 250), ("c", 400)] {
          Task {
            while true {
              try await scheduler.sleep(for: .milliseconds(period))
              _ = await counter.increment()
              wakes.append(name)
            }
          }
        }
        for step in 1...10 {
          await scheduler.advance(by: .milliseconds(100))
          let now = step * 100
          let expected = now / 100 + now / 250 + now / 400
          #expect(await counter.value == expected)
          #expect(wakes.values.filter { $0 == "a" }.count == now / 100)
          #expect(wakes.values.filter { $0 == "b" }.count == now / 250)
          #expect(wakes.values.filter { $0 == "c" }.count == now / 400)
        }
        #expect(scheduler.pending.map(\.offset) == [.milliseconds(1_100), .milliseconds(1_200), .milliseconds(1_250)])
      }
    }
  }

  @Test func endingTheScopeReportsAndCancelsSleepersSoNoTaskOutlivesTheTest() async {
    let scheduler = TestScheduler()
    let ticks = Recorder<Duration>()
    let scopeLine = #line + 4
    let sleepLine = #line + 7
    let task = Locked<Task<Void, any Error>?>(nil)
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        task.withLock {
          $0 = Task {
            while true {
              try await scheduler.sleep(for: .seconds(1))
              ticks.append(scheduler.elapsed)
            }
          }
        }
        await scheduler.advance(by: .seconds(2))
      }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          withVirtualTime at EffectsTestSupportTests/TestSchedulerAsyncTests.swift:\(scopeLine) ended with a task \
          sleeping here still pending (due at .seconds(3); virtual time was .seconds(2)). It got CancellationError. \
          Advance time past the sleep before the scope ends, or cancel the task; if the test means to leave it, open \
          the scope with leftoverWork: .expected.
          """,
          line: sleepLine
        )
      ]
    )
    let result = await task.snapshot?.result
    #expect(throws: CancellationError.self) { try result?.get() }
    #expect(ticks.values == [.seconds(1), .seconds(2)])
    #expect(scheduler.pending == [])
  }

  @Test func runStopsARunawaySleeperLoopAndReportsItsLine() async {
    let scheduler = TestScheduler(maxRuns: 20)
    await scheduler.withVirtualTime(leftoverWork: .expected) {
      Task {
        while true {
          try await scheduler.sleep(for: .seconds(1))
        }
      }
      let sleepLine = #line - 3
      let runLine = #line + 2
      let issues = await withCapturedIssues {
        await scheduler.run()
      }.issues
      #expect(
        issues == [
          CapturedIssue(
            """
            await TestScheduler.run() at EffectsTestSupportTests/TestSchedulerAsyncTests.swift:\(runLine) stopped \
            after 20 actions (maxRuns) with work still due: a sleeping task scheduled at \
            EffectsTestSupportTests/TestSchedulerAsyncTests.swift:\(sleepLine) keeps running. Cancel it, \
            advance(by:) a bounded window instead of run(), or raise maxRuns.
            """,
            line: sleepLine
          )
        ]
      )
      #expect(scheduler.elapsed == .seconds(20))
    }
  }

  @Test func awaitingAdvanceOutsideAScopeRunsActionsExactlyAndSilently() async {
    let scheduler = TestScheduler()
    let ran = Recorder<Duration>()
    scheduler.schedule(after: .seconds(1)) { ran.append(scheduler.elapsed) }
    scheduler.schedule(after: .seconds(3)) { ran.append(scheduler.elapsed) }
    let issues = await withCapturedIssues {
      await scheduler.advance(by: .seconds(2))
    }.issues
    #expect(issues == [], "scheduled actions need no scope: the await form is as exact as the synchronous one")
    #expect(ran.values == [.seconds(1)])
    #expect(scheduler.elapsed == .seconds(2))
  }

  @MainActor
  @Test func awaitingAdvanceOutsideAScopeReportsASleepingTaskItCannotWaitFor() async throws {
    let scheduler = TestScheduler()
    let sleepLine = #line + 1
    let sleeper = Task { @MainActor in try await scheduler.sleep(for: .seconds(1)) }
    await Task { @MainActor in }.value  // the main actor runs tasks in order: the sleeper is asleep
    try #require(scheduler.pending.map(\.kind) == [.sleep])
    let line = #line + 2
    let issues = await withCapturedIssues {
      await scheduler.advance(by: .seconds(1))
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          await TestScheduler.advance(by:) resumed a task sleeping since \
          EffectsTestSupportTests/TestSchedulerAsyncTests.swift:\(sleepLine), but outside withVirtualTime it \
          cannot wait for it to run: what it does next happens at a moment that depends on real time, so a \
          check after this line can flake. Call `await scheduler.advance(by:)` inside \
          `await scheduler.withVirtualTime { … }`, or mark the test `@Test(.virtualTime)` and advance \
          `TestScheduler.current`, the scope's own scheduler.
          """,
          line: line
        )
      ]
    )
    try await sleeper.value
  }

  @MainActor
  @Test func theSynchronousFormReportsTheSleepingTasksItCannotWaitFor() async throws {
    let scheduler = TestScheduler()
    let sleepLine = #line + 2
    let sleepers = (0..<2).map { _ in
      Task { @MainActor in try await scheduler.sleep(for: .seconds(1)) }
    }
    await Task { @MainActor in }.value
    try #require(scheduler.pending.count == 2)
    let line = #line + 2
    let issues = withCapturedIssues {
      advanceSynchronously(scheduler, by: .seconds(1))
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          TestScheduler.advanceSynchronously(by:) resumed 2 tasks sleeping since \
          EffectsTestSupportTests/TestSchedulerAsyncTests.swift:\(sleepLine), but the synchronous form cannot \
          wait for them to run: what they do next happens at a moment that depends on real time, so a check \
          after this line can flake. Call `await scheduler.advance(by:)` inside \
          `await scheduler.withVirtualTime { … }`, or mark the test `@Test(.virtualTime)` and advance \
          `TestScheduler.current`, the scope's own scheduler.
          """,
          line: line
        )
      ]
    )
    for sleeper in sleepers { try await sleeper.value }
  }

  @Test func theClockViewSleepsInVirtualTime() async {
    let scheduler = TestScheduler()
    let clock = TestScheduler.VirtualClock(scheduler)
    let clockLine = #line - 1
    let woke = Recorder<Duration>()
    await scheduler.withVirtualTime {
      Task {
        try await clock.sleep(for: .seconds(2))
        woke.append(clock.now.offset)
      }
      await scheduler.advance(by: .seconds(1))
      #expect(woke.values == [])
      #expect(scheduler.pending.map(\.callSite.line) == [UInt(clockLine)])
      #expect(clock.now == TestScheduler.VirtualClock.Instant(offset: .seconds(1)))
      await scheduler.advance(by: .seconds(1))
      #expect(woke.values == [.seconds(2)])
      #expect(clock.minimumResolution == .zero)
    }
  }

  @Test func awaitAdvanceRunsCallbacksAtTheirDeadlines() async {
    let scheduler = TestScheduler()
    let order = Recorder<Duration>()
    await scheduler.withVirtualTime {
      let timer = scheduler.schedule(after: .seconds(1), every: .seconds(1)) { order.append(scheduler.elapsed) }
      await scheduler.advance(to: .seconds(3))
      #expect(order.values == [.seconds(1), .seconds(2), .seconds(3)])
      timer.cancel()
    }
  }
}

/// An actor the tasks under test call, to cover actor hops. (No `Task.yield()` inside: a yield
/// inside an actor escapes the virtual-time executor, as `withVirtualTime` documents.)
private actor Counter {
  private(set) var value = 0

  @discardableResult
  func increment() -> Int {
    value += 1
    return value
  }
}

/// The synchronous `advance`, as a synchronous helper of an async test calls it.
private func advanceSynchronously(
  _ scheduler: TestScheduler,
  by duration: Duration,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  scheduler.advanceSynchronously(by: duration, fileID: fileID, filePath: filePath, line: line, column: column)
}
