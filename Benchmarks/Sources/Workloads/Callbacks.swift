import CombineSchedulers
import Dispatch
import Effects
import EffectsTestSupport

// N callbacks at random deadlines within an hour (the same seeded deadlines on every side),
// scheduled, then run by one advance of an hour.

func callbackWorkloads() -> [Workload] {
  [1_000, 10_000, 100_000, 1_000_000].flatMap { size -> [Workload] in
    let delays = randomDelays(count: size)
    var workloads = [
      Workload("callbacks", size: size, side: "effects", body: .sync { effectsCallbacks(delays) }),
      // The least the work costs: a bare binary heap, every deadline pushed, then popped.
      Workload("callbacks", size: size, side: "floor", body: .sync { heapFloor(delays) }),
    ]
    // combine-schedulers sorts its whole queue before each action it runs: 100,000 would take
    // over half an hour per iteration, so its sizes stop at 10,000.
    if size <= 10_000 {
      workloads.append(
        Workload(
          "callbacks",
          size: size,
          side: "combine-schedulers",
          takesSeconds: size >= 10_000,
          body: .sync { combineSchedulersCallbacks(delays) }
        )
      )
    }
    return workloads
  }
}

/// `count` delays in nanoseconds, random within an hour, the same on every run.
private func randomDelays(count: Int) -> [Int64] {
  var generator = SeededGenerator(seed: 42)
  return (0..<count).map { _ in Int64.random(in: 0..<3_600_000_000_000, using: &generator) }
}

private func effectsCallbacks(_ delays: [Int64]) {
  let scheduler = TestScheduler(maxRuns: .max)
  let counter = Counter()
  for delay in delays {
    scheduler.schedule(after: .nanoseconds(delay)) { counter.increment() }
  }
  scheduler.advanceSynchronously(by: .seconds(3_600))
  precondition(counter.value == delays.count, "ran \(counter.value) of \(delays.count) callbacks")
}

private func combineSchedulersCallbacks(_ delays: [Int64]) {
  let scheduler = DispatchQueue.test
  let counter = Counter()
  for delay in delays {
    scheduler.schedule(after: scheduler.now.advanced(by: .nanoseconds(Int(delay)))) { counter.increment() }
  }
  scheduler.advance(by: .seconds(3_600))
  precondition(counter.value == delays.count, "ran \(counter.value) of \(delays.count) callbacks")
}

private func heapFloor(_ delays: [Int64]) {
  var heap = DeadlineHeap()
  for (sequence, delay) in delays.enumerated() {
    heap.push(DeadlineHeap.Entry(deadline: delay, sequence: sequence))
  }
  var popped = 0
  while let entry = heap.pop() {
    popped &+= entry.sequence
  }
  blackHole(popped)
}

/// The floor of a timer queue: an array-backed binary min-heap of (deadline, sequence).
struct DeadlineHeap {
  struct Entry {
    var deadline: Int64
    var sequence: Int

    func precedes(_ other: Entry) -> Bool {
      (deadline, sequence) < (other.deadline, other.sequence)
    }
  }

  private var entries: [Entry] = []

  mutating func push(_ entry: Entry) {
    entries.append(entry)
    var child = entries.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard entries[child].precedes(entries[parent]) else { break }
      entries.swapAt(child, parent)
      child = parent
    }
  }

  mutating func pop() -> Entry? {
    guard let last = entries.popLast() else { return nil }
    guard !entries.isEmpty else { return last }
    let first = entries[0]
    entries[0] = last
    var parent = 0
    while true {
      let left = 2 * parent + 1
      guard left < entries.count else { break }
      let right = left + 1
      var smallest = left
      if right < entries.count, entries[right].precedes(entries[left]) { smallest = right }
      guard entries[smallest].precedes(entries[parent]) else { break }
      entries.swapAt(parent, smallest)
      parent = smallest
    }
    return first
  }
}
