import Effects
@testable import EffectsTestSupport
import Testing

/// The timer queue's end of time: work due at or past `TimerQueue.never` keeps its slot but has no
/// key, so it is listed and cancellable, and nothing takes it out.
@Suite struct TimerQueueEndOfTimeTests {
  @Test func workDueNeverIsListedAndCancellableButNeverTakenWhateverTheLimit() {
    var queue = TimerQueue()
    let never = queue.insert(deadline: .seconds(Int64.max) * 2, callSite: CallSite(), work: .once({}))
    let soon = queue.insert(deadline: .seconds(1), callSite: CallSite(), work: .once({}))
    #expect(queue.count == 2)
    #expect(queue.nextDeadline() == .seconds(1), "work due never is not the next deadline")
    #expect(queue.popEarliest(dueBy: TimerQueue.never)?.id == soon.id)
    #expect(queue.popEarliest(dueBy: TimerQueue.never) == nil)
    #expect(queue.popEarliest(dueBy: nil) == nil)
    #expect(queue.nextDeadline() == nil)
    #expect(queue.entries.map(\.deadline) == [TimerQueue.never], "kept, at the end of time")
    #expect(queue.remove(never) != nil)
    #expect(queue.count == 0)
    #expect(queue.entries.isEmpty)
  }

  @Test func aRepeatingTimerWhoseNextTickIsPastTheEndStaysLiveAndIsNeverTakenAgain() throws {
    var queue = TimerQueue()
    let timer = queue.insert(
      deadline: .seconds(1),
      callSite: CallSite(),
      work: .repeating(interval: .seconds(Int64.max) * 3, {})
    )
    #expect(queue.popEarliest(dueBy: nil)?.deadline == .seconds(1))
    #expect(queue.popEarliest(dueBy: nil) == nil)
    #expect(queue.count == 1)
    let entry = try #require(queue.entries.first)
    #expect(entry.deadline == TimerQueue.never)
    if case .repeating(let interval, _) = entry.work {
      #expect(interval == TimerQueue.never, "an interval past the end means the same, and stays printable")
    } else {
      Issue.record("the timer is no longer a repeating one")
    }
    // Later work is still taken in order once the only other entry is due never.
    let later = queue.insert(deadline: .seconds(5), callSite: CallSite(), work: .once({}))
    #expect(queue.popEarliest(dueBy: .seconds(5))?.id == later.id)
    #expect(queue.remove(timer) != nil)
    #expect(queue.count == 0)
  }

  @Test func deadlinesAddWithoutOverflowAndStopAtTheEnd() {
    #expect(TimerQueue.deadline(.seconds(1), plus: .seconds(2)) == .seconds(3))
    #expect(
      TimerQueue.deadline(.seconds(1), plus: .seconds(Int64.max) - .seconds(2)) == .seconds(Int64.max) - .seconds(1)
    )
    #expect(TimerQueue.deadline(.seconds(1), plus: .seconds(Int64.max) - .seconds(1)) == TimerQueue.never)
    #expect(TimerQueue.deadline(TimerQueue.never, plus: .zero) == TimerQueue.never)
    #expect(TimerQueue.deadline(.seconds(Int64.max) * 8, plus: .seconds(Int64.max) * 8) == TimerQueue.never)
  }
}
