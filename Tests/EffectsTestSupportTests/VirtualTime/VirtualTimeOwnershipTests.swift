import Effects
import EffectsTestHelpers
@testable import EffectsTestSupport
import Testing

/// A task belongs to the scope that started it. Another scope open at the same time (another
/// test's, running in parallel) that resumes it never adopts it: it does not wait for it, report
/// it as its own leftover, or cancel it; its owner reports that it was resumed from outside.
@Suite(.timeLimit(.minutes(1))) struct VirtualTimeOwnershipTests {
  @Test func aTaskOfOneScopeResumedByAnotherStaysWithItsOwner() async {
    let first = TestScheduler()
    let second = TestScheduler()
    let parked = Locked<CheckedContinuation<Void, Never>?>(nil)
    let steps = Locked<[String]>([])
    let (firstParked, parkedInput) = AsyncStream<Void>.makeStream()
    let (secondDone, doneInput) = AsyncStream<Void>.makeStream()
    let parkLine = #line + 9
    async let firstIssues = withCapturedIssues {
      await first.withVirtualTime {
        let task = Task {
          await withCheckedContinuation { continuation in parked.withLock { $0 = continuation } }
          steps.withLock { $0.append(Task.isCancelled ? "cancelled" : "resumed") }
          try? await first.sleep(for: .seconds(1))
          steps.withLock { $0.append("slept") }
        }
        await first.advance(by: .zero)  // the task is parked
        parkedInput.finish()  // tells the test (outside both scopes) to open the second scope
        for await _ in secondDone {}  // its own wake-up from outside: the driver's, not an escape
        await first.advance(by: .zero)  // waits for the task the second scope resumed
        #expect(steps.withLock { $0 } == ["resumed"])
        await first.advance(by: .seconds(1))
        #expect(steps.withLock { $0 } == ["resumed", "slept"])
        await task.value
      }
    }.issues
    for await _ in firstParked {}
    let secondIssues = await withCapturedIssues {
      await second.withVirtualTime {
        parked.withLock { $0 }?.resume()
        await second.advance(by: .zero)
      }
    }.issues
    doneInput.finish()
    // The second scope neither waited for the task, nor reported it, nor cancelled it.
    #expect(secondIssues == [])
    // Both wake-ups from outside the first scope are said at the advance after which they came:
    // the test's own task (not the scope's, so it ran outside it), and the parked task.
    let issues = await firstIssues
    #expect(
      issues == [
        .inexactVirtualTime(
          """
          the scope resumed a task that is not part of it (one started before the scope opened: by another test \
          running in parallel, or left over from an earlier scope); it runs outside the scope, which does not wait \
          for it
          """,
          line: parkLine
        ),
        .inexactVirtualTime(CapturedIssue.resumedFromOutside, line: parkLine),
      ]
    )
  }

  /// A scope keeps the tasks it started alive until it can tell whether they ended; ended ones are
  /// let go as it goes, so a loop of short tasks holds a bounded number, not all of them.
  @available(EffectsVirtualTime, *)
  @Test func aScopeHoldsOnlyTheTasksStillRunning() async {
    let scheduler = TestScheduler()
    let held = await scheduler.withVirtualTime {
      for _ in 0..<10_000 {
        await Task {}.value
      }
      return VirtualExecutor.scope?.heldTasks ?? -1
    }
    #expect((0..<2_048).contains(held))
  }

  /// A scope that closes forgets the tasks it adopted, and only those: a task of another scope
  /// stays that scope's, even at an address where one of the closing scope's tasks used to be.
  /// (Addresses under 4 KiB: no task is ever there.)
  @available(EffectsVirtualTime, *)
  @Test func aClosingScopeForgetsItsOwnTasksAndNoOthers() {
    let first = VirtualExecutor(driver: nil, driverPrefersLane: false)
    let second = VirtualExecutor(driver: nil, driverPrefersLane: false)
    defer {
      first.close()
      second.close()
    }
    var firstTasks = TaskTable()
    var secondTasks = TaskTable()
    func adopt(_ address: UInt, id: UInt64, by scope: VirtualExecutor, into tasks: inout TaskTable) {
      tasks.insert(address, id: id)
      ScopeTasks.adopt(address: address, id: id, by: scope)
    }
    adopt(0x100, id: 1, by: first, into: &firstTasks)
    adopt(0x110, id: 2, by: first, into: &firstTasks)
    adopt(0x120, id: 3, by: second, into: &secondTasks)
    // The first scope's task at 0x110 ended, and a task of the second took its address.
    adopt(0x110, id: 4, by: second, into: &secondTasks)

    ScopeTasks.release(first, tasks: firstTasks)
    #expect(ScopeTasks.owner(address: 0x100, id: 1) == nil)
    #expect(ScopeTasks.owner(address: 0x110, id: 2) == nil)
    #expect(ScopeTasks.owner(address: 0x110, id: 4) === second)
    #expect(ScopeTasks.owner(address: 0x120, id: 3) === second)

    ScopeTasks.release(second, tasks: secondTasks)
    #expect(ScopeTasks.owner(address: 0x110, id: 4) == nil)
    #expect(ScopeTasks.owner(address: 0x120, id: 3) == nil)
  }
}
