import Dispatch
import Effects
import EffectsTestHelpers
@testable import EffectsTestSupport
import Testing

/// Which jobs belong to a scope: tasks created inside it, wherever they run — and not tasks of
/// code outside it, even when they share an actor with it or are resumed by it.
@Suite struct VirtualTimeAttributionTests {
  @Test func aTaskStartedOnTheTestsOwnActorIsWaitedFor() async {
    var wrong = 0
    for _ in 0..<200 {
      if await IsolatedTest().startATaskAndRunDue() != 1 { wrong += 1 }
    }
    #expect(wrong == 0)
  }

  /// An outside task that takes an actor's turn on the scope's thread may run on there until it
  /// next suspends (the runtime switches actors inline), but it never becomes the scope's: nothing
  /// of it is counted or reported as the scope's, and both finish. (The other way round — a task
  /// of the scope run inside the outside task's turn — is reported.)
  @Test func plainCodeSharingAnActorWithAScopeIsNotTakenIn() async {
    let shared = Hits()
    let outside = Task.detached {
      for _ in 0..<20_000 { await shared.hit() }
    }
    let scheduler = TestScheduler()
    let issues = IssueCounter()
    await withKnownIssue(isIntermittent: true) {
      await scheduler.withVirtualTime {
        let inside = Task { for _ in 0..<20_000 { await shared.hit() } }
        await scheduler.advance()
        await inside.value
      }
    } matching: {
      issues.record($0.message)
    }
    await outside.value
    #expect(issues.recorded.allSatisfy { $0.contains("a task of the scope ran on a thread outside it") })
    #expect(await shared.count == 40_000)
  }

  @Test func aTaskLeftOverFromAnEarlierScopeWorksForTheNextOne() async {
    let scheduler = TestScheduler()
    let (stream, input) = AsyncStream<Int>.makeStream()
    let children = Locked(0)
    let leftover = await scheduler.withVirtualTime(leftoverWork: .expected) {
      let task = Task {
        for await _ in stream {
          Task {
            await Task.yield()
            children.withLock { $0 += 1 }
          }
        }
      }
      await scheduler.advance()
      return task
    }
    var counted = -1
    // The leftover task, resumed by this scope, becomes one of its tasks: still waiting at the end.
    await scheduler.withVirtualTime(leftoverWork: .expected) {
      input.yield(1)
      await scheduler.advance()
      counted = children.withLock { $0 }
    }
    input.finish()
    _ = await leftover.result
    #expect(counted == 1)
  }

  @Test func advancingFromATaskThatOutlivedItsScopeIsReported() async {
    let scheduler = TestScheduler()
    let (stream, input) = AsyncStream<Void>.makeStream()
    let advanceLine = #line + 6
    let issues = await withCapturedIssues {
      // Made inside the capture, so that the task's report is captured here.
      let leftover = await scheduler.withVirtualTime(leftoverWork: .expected) {
        Task {
          for await _ in stream {
            await scheduler.advance()
          }
        }
      }
      input.yield()
      input.finish()
      await leftover.value
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          await TestScheduler.advance(by:) was called by a task that outlived its withVirtualTime scope, so it cannot \
          wait for the tasks it wakes. Await the task before the scope ends, or cancel it.
          """,
          line: advanceLine
        )
      ]
    )
  }
}

private actor IsolatedTest {
  private var value = 0

  func startATaskAndRunDue() async -> Int {
    let scheduler = TestScheduler()
    return await scheduler.withVirtualTime {
      Task { self.value = 1 }  // isolated to this actor, queued behind the test
      await scheduler.advance()
      return value
    }
  }
}

private actor Hits {
  private(set) var count = 0

  func hit() {
    count += 1
  }
}

/// An actor with its own executor: a queue of its own, which no hook sees.
@available(EffectsVirtualTime, *)
private actor QueueActor {
  private let queue = QueueExecutor(label: "QueueActor")
  private(set) var calls = 0

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    queue.asUnownedSerialExecutor()
  }

  func call() {
    calls += 1
  }
}

extension VirtualTimeAttributionTests {
  @available(EffectsVirtualTime, *)
  @Test func aTaskRunningOnAnActorWithItsOwnExecutorIsReported() async {
    let scheduler = TestScheduler()
    let actor = QueueActor()
    let runDueLine = #line + 7
    let issues = await withCapturedIssues {
      await scheduler.withVirtualTime {
        let task = Task {
          await actor.call()
          return await actor.calls  // back from the actor's queue: seen off the scope's lanes
        }
        await scheduler.advance()
        #expect(await task.value == 1)
      }
    }.issues
    // Seen when the task comes back from the actor's queue: as running off the scope's lanes, or
    // as resumed from outside the scope, or both — which depends on the threads' timing. Each is
    // reported once, in full.
    let ranOutside = CapturedIssue.inexactVirtualTime(
      """
      a task of the scope ran on a thread outside it (inside an actor that code outside the scope was holding, on \
      an actor with its own executor, or under another task executor), where it is not counted
      """,
      line: runDueLine
    )
    let resumedOutside = CapturedIssue.inexactVirtualTime(CapturedIssue.resumedFromOutside, line: runDueLine)
    #expect(!issues.isEmpty)
    #expect(issues.allSatisfy { [ranOutside, resumedOutside].contains($0) })
    #expect(issues.filter { $0 == ranOutside }.count <= 1 && issues.filter { $0 == resumedOutside }.count <= 1)
  }
}
