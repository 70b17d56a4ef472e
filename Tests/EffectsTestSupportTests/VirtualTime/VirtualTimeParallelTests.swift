@testable import EffectsTestSupport
import Foundation
import Testing

/// Scopes and plain async code running side by side, as a parallel test run does: the plain code
/// must never be pulled into a scope (its jobs never run on a scope's thread) and must finish, and
/// the scopes must stay exact.
@Suite struct VirtualTimeParallelTests {
  @available(EffectsVirtualTime, *)
  @Test(arguments: 0..<24) func scopesAndPlainAsyncCodeRunSideBySide(_ index: Int) async {
    if index.isMultiple(of: 2) {
      await exactScope()
    } else {
      await plainAsyncWork()
    }
  }

  @available(EffectsVirtualTime, *)
  private func exactScope() async {
    for _ in 0..<50 {
      let scheduler = TestScheduler()
      let steps = Tally()
      await scheduler.withVirtualTime {
        let task = Task {
          for _ in 0..<3 {
            try await scheduler.sleep(for: .seconds(1))
            await Task.yield()
            #expect(onAScopeThread())  // the probe sees a scope's lane when there is one
            await steps.increment()
          }
        }
        await scheduler.advance(by: .seconds(2))
        #expect(await steps.value == 2)
        await scheduler.advance(by: .seconds(1))
        #expect(await steps.value == 3)
        _ = await task.result
      }
    }
  }

  @available(EffectsVirtualTime, *)
  private func plainAsyncWork() async {
    let tally = Tally()
    let strays = Tally()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<100 {
        group.addTask {
          await Task.yield()
          if onAScopeThread() { await strays.increment() }
          await tally.increment()
          await MainActor.run { dispatchPrecondition(condition: .onQueue(.main)) }
          if onAScopeThread() { await strays.increment() }
        }
      }
    }
    let unstructured = Task.detached { onAScopeThread() }
    #expect(await unstructured.value == false)
    #expect(await tally.value == 100)
    #expect(await strays.value == 0)
  }
}

private actor Tally {
  private(set) var value = 0

  func increment() {
    value += 1
  }
}

/// Whether the calling job runs on one of the lanes of a virtual-time scope (its thread, or its turn
/// of the main queue).
@available(EffectsVirtualTime, *)
private func onAScopeThread() -> Bool {
  VirtualExecutor.onCurrentThread != nil
}
