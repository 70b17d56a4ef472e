import Effects
import EffectsTestSupport
import Foundation

/// An actor the explored tasks hop to: each call is a point where the order can change.
actor ExploredBackend {
  func fetch(_ value: Int) -> Int { value }
}

/// What the explored tasks did, in order.
@MainActor final class ExploredLog {
  var entries: [String] = []
  var text: String { entries.joined(separator: " ") }
}

/// Three tasks — two on the main actor, one detached — each hopping to an actor: 27 orders or so.
/// Returns the order they ran in.
@MainActor
func runThreeTasks() async -> String {
  let log = ExploredLog()
  let backend = ExploredBackend()
  let a = Task { @MainActor in
    log.entries.append("a1")
    _ = await backend.fetch(1)
    log.entries.append("a2")
  }
  let b = Task { @MainActor in
    log.entries.append("b1")
    _ = await backend.fetch(2)
    log.entries.append("b2")
  }
  let c = Task.detached {
    _ = await backend.fetch(3)
    await MainActor.run { log.entries.append("c") }
  }
  await a.value
  await b.value
  await c.value
  return log.text
}

/// An actor whose work yields halfway: a `Task.yield()` inside an actor is a point where the order
/// can change.
actor HalfwayYielder {
  var log: [String] = []

  func work(_ name: String) async {
    log.append(name + "1")
    await Task.yield()
    log.append(name + "2")
  }
}
