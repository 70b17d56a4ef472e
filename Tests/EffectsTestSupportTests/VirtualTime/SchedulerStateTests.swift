import Effects
import Testing

@testable import EffectsTestSupport

/// The scheduler's state behind its lock, driven as a plain value, with no thread, task or lock:
/// sleeper slots are reserved, found, freed and reused, and a ticket never names a later sleeper.
@Suite struct SchedulerStateTests {
  @Test func aSleeperSlotIsReservedFreedAndReusedUnderANewGeneration() {
    var state = TestScheduler.State(maxRuns: 10)
    let first = state.reserveSleeper()
    let second = state.reserveSleeper()
    #expect((first.index, first.generation) == (0, 0))
    #expect((second.index, second.generation) == (1, 0))
    #expect(state.isReserved(first) && state.isReserved(second))

    #expect(state.cancelSleeper(first) == nil, "it had not registered: no continuation to answer")
    #expect(!state.isReserved(first), "a freed slot's ticket no longer names a sleeper")
    #expect(state.isReserved(second))

    let third = state.reserveSleeper()
    #expect((third.index, third.generation) == (0, 1), "the freed slot is reused, one generation on")
    #expect(state.isReserved(third))
    #expect(!state.isReserved(first), "the old ticket does not name the new sleeper")
  }

  @Test func aTicketKeepsItsSlotAndGenerationInOneWord() {
    let ticket = TestScheduler.State.SleeperTicket(index: Int(UInt32.max), generation: .max)
    #expect(ticket.index == Int(UInt32.max))
    #expect(ticket.generation == .max)
    #expect(MemoryLayout<TestScheduler.State.SleeperTicket>.size == 8)
  }

  @Test func aTicketOfASlotPastTheEndIsNotReserved() {
    let state = TestScheduler.State(maxRuns: 10)
    #expect(!state.isReserved(TestScheduler.State.SleeperTicket(index: 3, generation: 0)))
  }

  /// Emptying the state answers the queued work, and frees every reserved slot, so that a sleeper
  /// still on its way to register finds its ticket gone.
  @Test func removingAllEmptiesTheQueueAndFreesEverySlot() {
    var state = TestScheduler.State(maxRuns: 10)
    let tickets = (0..<3).map { _ in state.reserveSleeper() }
    let site = CallSite(fileID: "App/Model.swift", filePath: "/App/Model.swift", line: 1, column: 1)
    _ = state.queue.insert(deadline: .seconds(1), callSite: site, work: .once {})
    _ = state.queue.insert(deadline: .seconds(2), callSite: site, work: .repeating(interval: .seconds(1)) {})
    let removed = state.removeAll()
    #expect(removed.entries.count == 2)
    #expect(removed.sleepers.isEmpty, "no sleeper had registered a continuation")
    #expect(tickets.allSatisfy { !state.isReserved($0) })
    #expect(state.queue.nextDeadline() == nil)
    #expect(Set(state.freeSleeperSlots) == [0, 1, 2])
  }
}
