package import Effects

extension Locked: WorkCancelling where Value == TestScheduler.State {
  package func cancelWork(id: UInt64, slot: Int) {
    // The removed work is returned out of the lock and freed here, after it: its closure's
    // captures may cancel other work from their `deinit` (a model cancelling its timers), which
    // takes this lock.
    let removed = withLock { $0.queue.remove(TimerQueue.Handle(slot: slot, id: id)) }
    withExtendedLifetime(removed) {}
  }
}

extension TestScheduler {
  /// Everything behind the scheduler's lock.
  package struct State {
    var elapsed: Duration = .zero
    var queue = TimerQueue()
    var maxRuns: Int
    /// Every sleeper from `sleep` until it is resumed, in a slab: reserving, finding and freeing
    /// one is an index, never a hash lookup, so the cost per sleeper stays flat however many sleep
    /// at once. A slot's `id` is 0 while it is free.
    var sleeperSlots: [SleeperSlot] = []
    var freeSleeperSlots: [Int] = []
    /// The virtual-time scope open on this scheduler (nil while it is opening), and the line
    /// that opened it. The executor is a `VirtualExecutor`, stored as an object because that type
    /// exists only where the engine is available (`EffectsVirtualTime`).
    var scope: (executor: AnyObject?, site: FailureLocation)?
    /// The call running work now (`advance`, `run`), so that a nested one is reported.
    var driving: (operation: String, site: CallSite)?
    /// Checks to run when the open scope ends, after its leftover work: a `StubNetwork`'s unused
    /// stubs.
    var scopeEndChecks: [@Sendable () -> Void] = []
    /// What runs when the open scope's operation has returned and its tasks have settled, before
    /// its leftover work is read: a `TestObserver` still consuming reports itself and stops.
    var scopeEndingChecks: [@Sendable (_ scope: FailureLocation) -> Bool] = []
    /// Whether a sleep from inside another scheduler's scope was reported: once a scheduler.
    var reportedForeignSleep = false
    /// Whether test support made this scheduler for a test and handed it to nobody, so that a
    /// sleep on it outside a scope can only be woken by a scope (see `guardUnattendedSleep`).
    var unattended = false
    /// The XCTest case test support made this scheduler for (with ``unattended``).
    var origin: XCTestCaseOrigin?

    init(maxRuns: Int) {
      self.maxRuns = maxRuns
    }

    /// Empties the queue, returning the continuations of the sleepers that were waiting. A sleeper
    /// still on its way to register finds its ticket gone, and throws `CancellationError`.
    mutating func removeAll() -> (entries: [TimerQueue.Entry], sleepers: [UnsafeContinuation<Void, any Error>]) {
      let entries = queue.removeAll()
      for index in sleeperSlots.indices where sleeperSlots[index].id != 0 { freeSleeper(at: index) }
      let continuations = entries.compactMap { entry -> UnsafeContinuation<Void, any Error>? in
        if case .sleep(let continuation, _) = entry.work { return continuation }
        return nil
      }
      return (entries, continuations)
    }

    /// A sleeper's place until it is resumed: its queue entry once it has registered.
    struct SleeperSlot {
      /// The id of its queue entry; 0 while the slot is free.
      var id: UInt64
      /// How many sleepers the slot has held: tells this one's ticket from an earlier one's.
      var generation: UInt32
      var handle: TimerQueue.Handle?
      /// Whether the sleeper went to sleep off the scope's lanes (an actor with its own executor):
      /// its wake-up cannot be waited for.
      var offLane = false
      /// Whether the sleeper sleeps on the main actor: its wake-up then goes to the main lane.
      var onMainActor = false
    }

    /// Names a sleeper's slot and generation, in one word: the sleeping task's frame carries it, and
    /// a larger frame costs an unstructured task an allocation.
    struct SleeperTicket: Sendable {
      let raw: UInt64

      init(index: Int, generation: UInt32) {
        raw = UInt64(index) << 32 | UInt64(generation)
      }

      var index: Int { Int(raw >> 32) }
      var generation: UInt32 { UInt32(truncatingIfNeeded: raw) }
    }

    /// A slot for a new sleeper.
    mutating func reserveSleeper() -> SleeperTicket {
      let id = queue.makeSequence()
      if let index = freeSleeperSlots.popLast() {
        sleeperSlots[index].id = id
        return SleeperTicket(index: index, generation: sleeperSlots[index].generation)
      }
      sleeperSlots.append(SleeperSlot(id: id, generation: 0, handle: nil))
      return SleeperTicket(index: sleeperSlots.count - 1, generation: 0)
    }

    /// Whether `ticket` still names its sleeper: not resumed, cancelled or emptied out since.
    func isReserved(_ ticket: SleeperTicket) -> Bool {
      let index = ticket.index
      return index < sleeperSlots.count && sleeperSlots[index].id != 0
        && sleeperSlots[index].generation == ticket.generation
    }

    /// Frees the slot at `index` for the next sleeper, whose ticket will not match this one's.
    mutating func freeSleeper(at index: Int) {
      sleeperSlots[index].id = 0
      sleeperSlots[index].handle = nil
      sleeperSlots[index].offLane = false
      sleeperSlots[index].onMainActor = false
      sleeperSlots[index].generation &+= 1
      freeSleeperSlots.append(index)
    }
  }
}
