import Effects
import Testing

@testable import EffectsTestSupport

/// A sleeper's life — reserved, registered, then freed by exactly one of wake, cancel, strand,
/// unattended end or emptying — driven as a plain value on one thread, with no lock, no lane and
/// no second task: every race of the real scheduler is one order of these calls.
///
/// A registered sleeper needs a continuation. One real continuation stands in for every sleeper of
/// a test; the state machine never resumes what it answers (the caller does), so the tests tell
/// the sleepers apart by their tickets and slots, and resume the stand-in once at the end.
@Suite struct SleeperStateMachineTests {
  typealias State = TestScheduler.State
  typealias Continuation = UnsafeContinuation<Void, any Error>

  static let site = CallSite(fileID: "App/Model.swift", filePath: "/App/Model.swift", line: 12, column: 5)

  /// Runs `body` with a real continuation to register, resumed once when `body` returns.
  func withStandIn(_ body: (Continuation) -> Void) async {
    try? await withUnsafeThrowingContinuation { (continuation: Continuation) in
      body(continuation)
      continuation.resume()
    }
  }

  /// Takes the earliest entry due by `target` out of the queue, as `runNext` does: moves time to
  /// its deadline and wakes its sleeper.
  func wakeNext(_ state: inout State, dueBy target: Duration?) -> (deadline: Duration, slot: Int, State.WokenSleeper)? {
    guard let (id, deadline, work) = state.queue.popEarliest(dueBy: target) else { return nil }
    guard case .sleep(_, let index) = work else {
      Issue.record("only sleepers were queued")
      return nil
    }
    state.elapsed = max(state.elapsed, deadline)
    return (deadline, index, state.wakeSleeper(at: index, id: id))
  }

  @Test func aSleeperRegistersAndIsWokenOnceAtItsDeadline() async {
    await withStandIn { continuation in
      var state = State(maxRuns: 10)
      let ticket = state.reserveSleeper()
      #expect(state.isReserved(ticket) && !state.isRegistered(ticket))
      let registered = state.register(ticket, after: .seconds(2), continuation, onMainActor: true)
      #expect(registered)
      #expect(state.isRegistered(ticket))
      #expect(state.queue.nextDeadline() == .seconds(2))
      #expect(wakeNext(&state, dueBy: .seconds(1)) == nil, "not due before its deadline")

      let woken = wakeNext(&state, dueBy: .seconds(2))
      #expect(woken?.deadline == .seconds(2))
      #expect(woken?.slot == ticket.index)
      #expect(woken?.2.sleptAt?.line == 12)
      #expect(woken?.2.onMainActor == true)
      #expect(woken?.2.offLane == false)
      #expect(!state.isReserved(ticket), "woken: the slot is free")
      #expect(state.cancelSleeper(ticket) == nil, "a cancel after the wake answers nothing: resumed once")
      #expect(state.strandSleeper(ticket) == nil)
      #expect(state.queue.count == 0)
    }
  }

  /// The race of a cancel that lands between `sleep` and the suspension: the registration finds
  /// the ticket gone, and the task throws instead of waiting for ever.
  @Test func aSleeperCancelledBeforeItRegistersFindsItsTicketGone() async {
    await withStandIn { continuation in
      var state = State(maxRuns: 10)
      let ticket = state.reserveSleeper()
      #expect(state.cancelSleeper(ticket) == nil, "nothing registered: nothing to resume")
      let registered = state.register(ticket, continuation)
      #expect(!registered)
      #expect(state.queue.count == 0, "the registration changed nothing")
      #expect(!state.isReserved(ticket))
    }
  }

  @Test func aSleeperRegistersOnce() async {
    await withStandIn { continuation in
      var state = State(maxRuns: 10)
      let ticket = state.reserveSleeper()
      _ = state.register(ticket, continuation)
      let again = state.register(ticket, after: .seconds(2), continuation, onMainActor: true)
      #expect(!again)
      #expect(state.queue.count == 1 && state.queue.nextDeadline() == .seconds(1), "the first registration stands")
    }
  }

  @Test func aRegisteredSleeperCancelledLeavesTheQueueAndIsAnsweredOnce() async {
    await withStandIn { continuation in
      var state = State(maxRuns: 10)
      let ticket = state.reserveSleeper()
      _ = state.register(ticket, continuation)
      #expect(state.cancelSleeper(ticket) != nil)
      #expect(state.queue.count == 0)
      #expect(wakeNext(&state, dueBy: nil) == nil, "its entry is gone: no wake after the cancel")
      #expect(state.cancelSleeper(ticket) == nil)
      #expect(state.removeAll().sleepers.isEmpty)
    }
  }

  @Test func aDeadlineAlreadyPassedIsDueNow() async {
    await withStandIn { continuation in
      var state = State(maxRuns: 10)
      state.elapsed = .seconds(5)
      let ticket = state.reserveSleeper()
      _ = state.registerSleeper(
        ticket,
        until: { _ in .seconds(1) },
        at: Self.site,
        continuation: continuation,
        onMainActor: false
      )
      #expect(state.queue.nextDeadline() == .seconds(5))
      #expect(wakeNext(&state, dueBy: .seconds(5))?.deadline == .seconds(5))
      #expect(state.elapsed == .seconds(5), "time never goes back")
    }
  }

  @Test func aStaleTicketNeverNamesTheSlotsNextSleeper() async {
    await withStandIn { continuation in
      var state = State(maxRuns: 10)
      let stale = state.reserveSleeper()
      _ = state.cancelSleeper(stale)
      let next = state.reserveSleeper()
      #expect(next.index == stale.index && next.generation == stale.generation &+ 1)
      _ = state.register(next, continuation)

      let registered = state.register(stale, after: .seconds(9), continuation, onMainActor: true)
      #expect(!registered)
      #expect(state.cancelSleeper(stale) == nil)
      #expect(state.strandSleeper(stale) == nil)
      state.markSleeperOffLane(stale)
      #expect(state.isRegistered(next), "the next sleeper is untouched")
      #expect(state.queue.count == 1 && state.queue.nextDeadline() == .seconds(1))
      #expect(wakeNext(&state, dueBy: nil)?.2.offLane == false, "the stale ticket's mark did not reach it")
    }
  }

  /// An entry whose slot no longer names it (its id differs) frees nothing: the slot may hold a
  /// later sleeper by then.
  @Test func aWakeWhoseEntryNoLongerNamesItsSlotFreesNothing() async {
    await withStandIn { continuation in
      var state = State(maxRuns: 10)
      let ticket = state.reserveSleeper()
      _ = state.register(ticket, continuation, onMainActor: true)
      let woken = state.wakeSleeper(at: ticket.index, id: 999_999)
      #expect(woken.sleptAt == nil && !woken.onMainActor && !woken.offLane)
      #expect(state.isRegistered(ticket))
      let pastTheEnd = state.wakeSleeper(at: 7, id: 1)
      #expect(pastTheEnd.sleptAt == nil)
    }
  }

  @Test func strandingAnswersTheDeadlineOnlyOfARegisteredSleeper() async {
    await withStandIn { continuation in
      var state = State(maxRuns: 10)
      let ticket = state.reserveSleeper()
      #expect(state.strandSleeper(ticket) == nil, "not registered yet: nothing to end")
      #expect(state.isReserved(ticket), "and the reservation stands")
      _ = state.register(ticket, after: .seconds(3), continuation)
      #expect(state.strandSleeper(ticket)?.deadline == .seconds(3))
      #expect(!state.isReserved(ticket))
      #expect(state.queue.count == 0)
      #expect(state.elapsed == .zero, "stranding does not move time: the scope does, after the report")
    }
  }

  @Test func anUnattendedSleeperEndsOnlyWithNoScopeOpenAndTimeUnmoved() async {
    await withStandIn { continuation in
      var state = State(maxRuns: 10)
      let ticket = state.reserveSleeper()
      _ = state.register(ticket, after: .seconds(3), continuation)

      state.scope = (executor: nil, site: FailureLocation(Self.site))
      #expect(state.endUnattendedSleeper(ticket, sleptAt: .zero) == nil, "a scope is open: it can wake the sleep")
      state.scope = nil
      state.elapsed = .seconds(1)
      #expect(state.endUnattendedSleeper(ticket, sleptAt: .zero) == nil, "time moved: someone advances")
      #expect(state.isRegistered(ticket))

      #expect(state.endUnattendedSleeper(ticket, sleptAt: .seconds(1)) != nil)
      #expect(!state.isReserved(ticket) && state.queue.count == 0)
      #expect(state.endUnattendedSleeper(ticket, sleptAt: .seconds(1)) == nil, "answered once")
    }
  }

  @Test func offLaneIsKeptUntilTheWakeAndClearedForTheSlotsNextSleeper() async {
    await withStandIn { continuation in
      var state = State(maxRuns: 10)
      let ticket = state.reserveSleeper()
      state.markSleeperOffLane(ticket)
      _ = state.register(ticket, continuation)
      #expect(wakeNext(&state, dueBy: nil)?.2.offLane == true)
      let next = state.reserveSleeper()
      #expect(next.index == ticket.index)
      #expect(!state.sleeperSlots[next.index].offLane && !state.sleeperSlots[next.index].onMainActor)
    }
  }

  @Test func emptyingAnswersEveryRegisteredSleeperOnceAndTurnsAwayTheRest() async {
    await withStandIn { continuation in
      var state = State(maxRuns: 10)
      let waiting = (0..<2).map { _ in state.reserveSleeper() }
      for ticket in waiting {
        _ = state.register(ticket, continuation)
      }
      let onItsWay = state.reserveSleeper()
      #expect(state.removeAll().sleepers.count == 2)
      let registers = state.register(onItsWay, continuation)
      #expect(!registers, "its ticket is gone: the task throws")
      for ticket in waiting + [onItsWay] {
        #expect(state.cancelSleeper(ticket) == nil && !state.isReserved(ticket), "answered by the emptying alone")
      }
    }
  }

  /// Every order of the transitions, at random: 500 seeded runs of 80 steps over up to 12 sleepers,
  /// checked against a model after each step. A registered sleeper is answered exactly once, by the
  /// transition that frees it; wakes come in deadline order; the queue holds exactly the registered.
  @Test(arguments: 0..<5) func everyOrderOfTransitionsAnswersEachSleeperExactlyOnce(batch: Int) async {
    await withStandIn { continuation in
      for run in 0..<100 {
        let seed = UInt64(batch * 100 + run)
        var random = SplitMix(seed: seed)
        var state = State(maxRuns: 10)
        /// Live tickets, and the deadline of each registered one.
        var live: [UInt64: Duration?] = [:]
        var tickets: [UInt64: State.SleeperTicket] = [:]
        var answered: [UInt64: Int] = [:]
        /// What each live sleeper said of itself: on the main actor, off the lanes.
        var flags: [UInt64: (onMainActor: Bool, offLane: Bool)] = [:]
        func answer(_ raw: UInt64, by transition: String) {
          answered[raw, default: 0] += 1
          #expect(answered[raw] == 1, "seed \(seed): sleeper \(raw) answered twice, the second by \(transition)")
          free(raw)
        }
        func free(_ raw: UInt64) {
          live[raw] = nil
          flags[raw] = nil
        }
        func anyTicket() -> State.SleeperTicket? {
          // Stale tickets too: any ticket ever made.
          tickets.values.sorted { $0.raw < $1.raw }.randomElement(using: &random)
        }
        for _ in 0..<80 {
          switch random.next() % 10 {
          case 0, 1:
            guard live.count < 12 else { continue }
            let ticket = state.reserveSleeper()
            #expect(tickets[ticket.raw] == nil, "seed \(seed): a ticket handed out twice")
            live[ticket.raw] = .some(nil)
            flags[ticket.raw] = (false, false)
            tickets[ticket.raw] = ticket
          case 2, 3:
            guard let ticket = anyTicket() else { continue }
            let delay = Duration.seconds(Int64(random.next() % 5))
            let wasReserved = live[ticket.raw].map { $0 == nil } ?? false
            let onMainActor = random.next() % 2 == 0
            let registers = state.register(ticket, after: delay, continuation, onMainActor: onMainActor)
            #expect(registers == wasReserved, "seed \(seed): only a reserved sleeper registers, once")
            if registers {
              live[ticket.raw] = .some(state.elapsed + delay)
              flags[ticket.raw]?.onMainActor = onMainActor
            }
          case 4:
            guard let ticket = anyTicket() else { continue }
            let wasRegistered = live[ticket.raw].map { $0 != nil } ?? false
            let wasLive = live[ticket.raw] != nil
            let continuation = state.cancelSleeper(ticket)
            #expect((continuation != nil) == wasRegistered, "seed \(seed)")
            if wasRegistered { answer(ticket.raw, by: "cancel") } else if wasLive { free(ticket.raw) }
          case 5:
            guard let ticket = anyTicket() else { continue }
            let deadline = live[ticket.raw] ?? nil
            let stranded = state.strandSleeper(ticket)
            #expect(stranded?.deadline == deadline, "seed \(seed)")
            if stranded != nil { answer(ticket.raw, by: "strand") }
          case 6:
            let target = state.elapsed + .seconds(Int64(random.next() % 4))
            while let (deadline, slot, woken) = wakeNext(&state, dueBy: target) {
              let earliest = live.values.compactMap { $0 }.min()
              #expect(deadline == earliest, "seed \(seed): not the earliest")
              let raw = live.first { tickets[$0.key]?.index == slot && $0.value == deadline }?.key
              #expect(raw != nil && woken.sleptAt != nil, "seed \(seed): woke no live sleeper")
              if let raw {
                #expect(woken.onMainActor == flags[raw]?.onMainActor, "seed \(seed): its actor")
                #expect(woken.offLane == flags[raw]?.offLane, "seed \(seed): off the lanes")
                answer(raw, by: "wake")
              }
            }
            state.elapsed = max(state.elapsed, target)
          case 7:
            guard let ticket = anyTicket() else { continue }
            state.markSleeperOffLane(ticket)
            if live[ticket.raw] != nil { flags[ticket.raw]?.offLane = true }
          case 8:
            // The unattended guard: ends the sleep only when time is still where it slept.
            guard let ticket = anyTicket() else { continue }
            let sleptAt = random.next() % 2 == 0 ? state.elapsed : state.elapsed + .seconds(1)
            let wasRegistered = live[ticket.raw].map { $0 != nil } ?? false
            let wasLive = live[ticket.raw] != nil
            let ended = state.endUnattendedSleeper(ticket, sleptAt: sleptAt)
            let applies = sleptAt == state.elapsed
            #expect((ended != nil) == (applies && wasRegistered), "seed \(seed)")
            if applies && wasRegistered {
              answer(ticket.raw, by: "unattended end")
            } else if applies && wasLive {
              free(ticket.raw)
            }
          default:
            // Emptying mid-run, now and then: every registered sleeper answered, every ticket gone.
            guard random.next() % 4 == 0 else { continue }
            let registered = live.filter { $0.value != nil }.map(\.key)
            #expect(state.removeAll().sleepers.count == registered.count, "seed \(seed): emptying")
            for raw in registered { answer(raw, by: "emptying") }
            for raw in Array(live.keys) { free(raw) }
          }
          let registered = live.values.filter { $0 != nil }.count
          #expect(state.queue.count == registered, "seed \(seed): the queue holds exactly the registered")
          for (raw, ticket) in tickets {
            #expect(state.isReserved(ticket) == (live[raw] != nil), "seed \(seed)")
            #expect(state.isRegistered(ticket) == ((live[raw] ?? nil) != nil), "seed \(seed)")
          }
        }
        let registered = live.filter { $0.value != nil }.count
        #expect(state.removeAll().sleepers.count == registered, "seed \(seed): emptying answers the rest")
        #expect(tickets.values.allSatisfy { !state.isReserved($0) })
      }
    }
  }
}

extension TestScheduler.State {
  /// Registers `ticket`'s sleeper `delay` from now, at the tests' call site.
  fileprivate mutating func register(
    _ ticket: SleeperTicket,
    after delay: Duration = .seconds(1),
    _ continuation: UnsafeContinuation<Void, any Error>,
    onMainActor: Bool = false
  ) -> Bool {
    registerSleeper(
      ticket,
      until: { $0 + delay },
      at: SleeperStateMachineTests.site,
      continuation: continuation,
      onMainActor: onMainActor
    )
  }
}
