import Dependencies
import Effects
import EffectsTestSupport
import Foundation

// Reading the date co-effect a million times: at the root (outside any override) and scoped
// (inside an override). Each side reads the co-effect itself, not the time it tells:
// `Environment.current.clock` and swift-dependencies' `@Dependency(\.date)` (a `DateGenerator`),
// beside the floor: a plain struct of existentials, read from a global (unscoped) or through a
// task-local the way `Environment.current` is scoped (scoped).

private let reads = 1_000_000
private let fixedDate = Date(timeIntervalSinceReferenceDate: 0)

func readWorkloads() -> [Workload] {
  [
    Workload("read.root", size: reads, side: "effects", body: .sync(effectsRootReads)),
    Workload("read.root", size: reads, side: "floor", body: .sync(plainReads)),
    Workload("read.root", size: reads, side: "swift-dependencies", body: .sync(dependencyReads)),
    Workload("read.scoped", size: reads, side: "effects", body: .sync(effectsScopedReads)),
    Workload("read.scoped", size: reads, side: "floor", body: .sync(taskLocalReads)),
    Workload("read.scoped", size: reads, side: "swift-dependencies", body: .sync(scopedDependencyReads)),
  ]
}

private func effectsRootReads() {
  for _ in 0..<reads { blackHole(Environment.current.clock) }
}

private func effectsScopedReads() {
  withEnvironment({ $0.clock = FixedClock(fixedDate) }) {
    for _ in 0..<reads { blackHole(Environment.current.clock) }
  }
}

private func plainReads() {
  for _ in 0..<reads { blackHole(PlainEnvironment.root.clock) }
}

private func taskLocalReads() {
  PlainEnvironment.$scoped.withValue(PlainEnvironment(clock: FixedClock(fixedDate))) {
    for _ in 0..<reads { blackHole(PlainEnvironment.current.clock) }
  }
}

private func dependencyReads() {
  let model = DatedModel()
  for _ in 0..<reads { blackHole(model.date) }
}

private func scopedDependencyReads() {
  withDependencies {
    $0.date = .constant(fixedDate)
  } operation: {
    let model = DatedModel()
    for _ in 0..<reads { blackHole(model.date) }
  }
}

/// How swift-dependencies is read: a property wrapper on the type that uses it, read each time.
private struct DatedModel {
  @Dependency(\.date) var date
}

/// The floor: a plain struct of existentials, read from a global (unscoped) or through a
/// task-local the way `Environment.current` is scoped.
struct PlainEnvironment: Sendable {
  var clock: any WallClock
  var console: any PlainConsole = PlainStandardOutput()
  var defaults: any PlainDefaults = PlainMemoryDefaults()
  var scheduler: any PlainScheduler = PlainImmediateScheduler()

  static let root = PlainEnvironment(clock: Environment.live.clock)
  @TaskLocal static var scoped: PlainEnvironment?

  static var current: PlainEnvironment {
    scoped ?? root
  }
}

protocol PlainConsole: Sendable { func print(_ line: String) }
protocol PlainDefaults: Sendable { func value(for key: String) -> Int? }
protocol PlainScheduler: Sendable { func schedule(_ work: @escaping @Sendable () -> Void) }

struct PlainStandardOutput: PlainConsole {
  func print(_ line: String) { Swift.print(line) }
}

struct PlainMemoryDefaults: PlainDefaults {
  func value(for key: String) -> Int? { nil }
}

struct PlainImmediateScheduler: PlainScheduler {
  func schedule(_ work: @escaping @Sendable () -> Void) { work() }
}
