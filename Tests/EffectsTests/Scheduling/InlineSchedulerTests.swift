import Effects
import Foundation
import Testing

@Suite struct InlineSchedulerTests {
  @Test func workRunsBeforeScheduleReturnsWhateverTheDelay() {
    let runs = Counter()
    let scheduler = InlineScheduler()
    scheduler.schedule(after: .seconds(3600)) { runs.increment() }
    #expect(runs.value == 1)
  }

  @Test func repeatingWorkRunsItsFirstTickOnceAndNeverAgain() {
    let runs = Counter()
    let scheduler = InlineScheduler()
    let work = scheduler.schedule(after: .seconds(1), every: .seconds(1)) { runs.increment() }
    work.cancel()
    #expect(runs.value == 1)
  }

  @Test func sleepReturnsAtOnce() async throws {
    try await InlineScheduler().sleep(for: .seconds(3600))
  }

  @Test func sleepInACancelledTaskThrowsCancellationError() async {
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await InlineScheduler().sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await task.value }
  }
}

/// A thread-safe counter for work run by schedulers.
final class Counter: Sendable {
  private let count = Mutexed(0)
  var value: Int { count.get() }
  func increment() { count.update { $0 += 1 } }
}

/// The tests' own lock-protected box (the library's `Locked` is package-internal to its modules).
final class Mutexed<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func get() -> Value { lock.withLock { value } }
  func update<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
}
