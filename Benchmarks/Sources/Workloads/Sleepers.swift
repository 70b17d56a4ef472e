import Clocks
import Foundation
import Effects
import EffectsTestSupport

// N tasks each sleep a different number of milliseconds (1 … N); one advance of N milliseconds
// resumes them all. Either in a task group or as N unstructured tasks.

func sleeperWorkloads() -> [Workload] {
  [1_000, 10_000, 100_000].flatMap { size -> [Workload] in
    var workloads = [
      Workload(
        "sleepers-group",
        size: size,
        side: "effects",
        allocations: .nearlyExact,
        body: .async { await effectsSleepersInGroup(size) }
      ),
      Workload(
        "sleepers-tasks",
        size: size,
        side: "effects",
        allocations: .nearlyExact,
        body: .async { await effectsSleepersInTasks(size) }
      ),
    ]
    // The floor: the same N tasks suspended and resumed in the same order by hand, with no
    // clock at all, to show what the runtime itself costs a task as N grows.
    workloads += [
      Workload(
        "sleepers-group",
        size: size,
        side: "floor",
        allocations: .nearlyExact,
        body: .async { await floorSleepersInGroup(size) }
      ),
      Workload(
        "sleepers-tasks",
        size: size,
        side: "floor",
        allocations: .nearlyExact,
        body: .async { await floorSleepersInTasks(size) }
      ),
    ]
    // swift-clocks' TestClock sorts its sleepers and yields 20 times per sleeper it resumes:
    // 100,000 would take far over an hour per iteration, so its sizes stop at 10,000.
    if size <= 10_000 {
      workloads += [
        Workload(
          "sleepers-group",
          size: size,
          side: "swift-clocks",
          takesSeconds: size >= 10_000,
          body: .async { await swiftClocksSleepersInGroup(size) }
        ),
        Workload(
          "sleepers-tasks",
          size: size,
          side: "swift-clocks",
          takesSeconds: size >= 10_000,
          body: .async { await swiftClocksSleepersInTasks(size) }
        ),
      ]
    }
    return workloads
  }
}

private func effectsSleepersInGroup(_ count: Int) async {
  let scheduler = TestScheduler(maxRuns: .max)
  let resumed = AtomicCounter()
  await scheduler.withVirtualTime {
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<count {
        group.addTask {
          try? await scheduler.sleep(for: .milliseconds(index + 1))
          resumed.increment()
        }
      }
      await scheduler.advance(by: .milliseconds(count))
      precondition(resumed.value == count, "one advance resumed \(resumed.value) of \(count) sleepers")
    }
  }
}

private func effectsSleepersInTasks(_ count: Int) async {
  let scheduler = TestScheduler(maxRuns: .max)
  let resumed = AtomicCounter()
  await scheduler.withVirtualTime {
    for index in 0..<count {
      Task {
        try? await scheduler.sleep(for: .milliseconds(index + 1))
        resumed.increment()
      }
    }
    await scheduler.advance(by: .milliseconds(count))
    precondition(resumed.value == count, "one advance resumed \(resumed.value) of \(count) sleepers")
  }
}

/// N tasks (in a group) that each suspend on a continuation of their own, resumed in index order
/// once all have suspended: the runtime's share of a sleeper, without any clock.
private func floorSleepersInGroup(_ count: Int) async {
  let waiters = Waiters(count: count)
  let resumed = AtomicCounter()
  await withTaskGroup(of: Void.self) { group in
    for index in 0..<count {
      group.addTask {
        await withUnsafeContinuation { waiters.store($0, at: index) }
        resumed.increment()
      }
    }
    await waiters.resumeAllOnceSuspended()
  }
  precondition(resumed.value == count, "resumed \(resumed.value) of \(count) waiters")
}

/// The same as unstructured tasks: the runtime's share of an unstructured sleeper.
private func floorSleepersInTasks(_ count: Int) async {
  let waiters = Waiters(count: count)
  let resumed = AtomicCounter()
  let tasks = (0..<count).map { index in
    Task {
      await withUnsafeContinuation { waiters.store($0, at: index) }
      resumed.increment()
    }
  }
  await waiters.resumeAllOnceSuspended()
  for task in tasks { await task.value }
  precondition(resumed.value == count, "resumed \(resumed.value) of \(count) waiters")
}

/// The continuations of N waiting tasks, by index; whoever waits for them all is resumed by the
/// last to suspend.
private final class Waiters: @unchecked Sendable {
  private let lock = NSLock()
  private var continuations: [UnsafeContinuation<Void, Never>?]
  private var stored = 0
  private var whenAllStored: UnsafeContinuation<Void, Never>?

  init(count: Int) {
    continuations = Array(repeating: nil, count: count)
  }

  func store(_ continuation: UnsafeContinuation<Void, Never>, at index: Int) {
    lock.lock()
    continuations[index] = continuation
    stored += 1
    let waiting = stored == continuations.count ? whenAllStored : nil
    if waiting != nil { whenAllStored = nil }
    lock.unlock()
    waiting?.resume()
  }

  /// Waits until every task has suspended, then resumes them in index order.
  func resumeAllOnceSuspended() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      lock.lock()
      let all = stored == continuations.count
      if !all { whenAllStored = continuation }
      lock.unlock()
      if all { continuation.resume() }
    }
    for continuation in continuations { continuation?.resume() }
  }
}

/// swift-clocks as its README uses it: start the work, then `await clock.advance(by:)`. Its
/// advance waits for no task, so a sleeper that starts late reads a later `now` and sleeps past
/// the end of the window: the driver advances the whole window again until every sleeper has
/// counted (the extra advances are part of the cost).
private func swiftClocksSleepersInGroup(_ count: Int) async {
  let clock = TestClock()
  let resumed = AtomicCounter()
  await withTaskGroup(of: Void.self) { group in
    for index in 0..<count {
      group.addTask {
        try? await clock.sleep(for: .milliseconds(index + 1))
        resumed.increment()
      }
    }
    await clock.advance(by: .milliseconds(count))
    while resumed.value < count {
      await clock.advance(by: .milliseconds(count))
    }
  }
}

private func swiftClocksSleepersInTasks(_ count: Int) async {
  let clock = TestClock()
  let resumed = AtomicCounter()
  for index in 0..<count {
    Task {
      try? await clock.sleep(for: .milliseconds(index + 1))
      resumed.increment()
    }
  }
  await clock.advance(by: .milliseconds(count))
  while resumed.value < count {
    await clock.advance(by: .milliseconds(count))
  }
}
