import Effects
import EffectsTestSupport

// What exploring costs beside the plain run of the same test: N main-actor tasks each call an
// actor 10 times (each call two hops: a point where the order can change), in one scope.
// `explored-scope`: one run under a random walk, one job at a time on either lane as the seed
// chooses; `plain-scope`: the default order, both lanes at once.

func explorationWorkloads() -> [Workload] {
  [100].flatMap { size -> [Workload] in
    [
      Workload(
        "explored-scope",
        size: size,
        side: "effects",
        allocations: .varying,
        body: .async { await hoppingTasks(size, exploring: .randomWalk(runs: 1)) }
      ),
      Workload(
        "plain-scope",
        size: size,
        side: "effects",
        allocations: .varying,
        body: .async { await hoppingTasks(size, exploring: nil) }
      ),
    ]
  }
}

private actor Ledger {
  private var total = 0

  func add(_ amount: Int) -> Int {
    total += amount
    return total
  }
}

@MainActor private func hoppingTasks(_ count: Int, exploring exploration: Exploration?) async {
  let body: (TestScheduler) async -> Void = { _ in
    let ledger = Ledger()
    var tasks: [Task<Void, Never>] = []
    for _ in 0..<count {
      tasks.append(
        Task { @MainActor in
          for _ in 0..<10 { _ = await ledger.add(1) }
        }
      )
    }
    for task in tasks { await task.value }
    let total = await ledger.add(0)
    precondition(total == count * 10)
  }
  if let exploration {
    await withVirtualTime(exploring: exploration, body)
  } else {
    await withVirtualTime(body)
  }
}
