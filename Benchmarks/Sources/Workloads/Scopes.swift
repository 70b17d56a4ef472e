import EffectsTestSupport

// N empty virtual-time scopes opened and ended one after another from the main actor: the fixed
// cost every test in a scope pays (the runtime's hooks, the watchdog's list, the scope's test
// environment, the end check), whatever it does inside.

func scopeWorkloads() -> [Workload] {
  [
    Workload(
      "scopes",
      size: 1_000,
      side: "effects",
      allocations: .nearlyExact,
      body: .async { await effectsScopes(1_000) }
    )
  ]
}

@MainActor private func effectsScopes(_ count: Int) async {
  var opened = 0
  for _ in 0..<count {
    await withVirtualTime { _ in opened += 1 }
  }
  precondition(opened == count, "opened \(opened) of \(count) scopes")
}
