import Effects

/// The test scheduler's pending work: a binary min-heap of keys ordered by (deadline, sequence),
/// over a slab of slots.
///
/// The heap holds only small keys (deadline, sequence, slot), so sifting moves 32 bytes, not a
/// closure and a call site. Cancelling frees the slot at once; its key stays in the heap until it
/// reaches the top, where its sequence no longer matches the slot's and it is skipped ("lazy
/// deletion"). So schedule, cancel and run are O(log n), and the live work is exactly the slots in
/// use.
struct TimerQueue {
  /// What runs when an entry is due.
  enum Work {
    case once(@Sendable () -> Void)
    case repeating(interval: Duration, @Sendable () -> Void)
    case sleep(UnsafeContinuation<Void, any Error>)
  }

  /// Live work, as ``TimerQueue/entries`` lists it.
  struct Entry {
    var id: UInt64
    var sequence: UInt64
    var deadline: Duration
    var callSite: CallSite
    var work: Work
  }

  /// A handle to find work again: its slot and its id (slots are reused).
  struct Handle: Sendable {
    var slot: Int
    var id: UInt64
  }

  private struct Key {
    /// The deadline as (seconds, attoseconds): `Duration`'s own `<` is an opaque call into the
    /// standard library, and a heap compares keys a lot.
    var seconds: Int64
    var attoseconds: Int64
    var sequence: UInt64
    var slot: Int

    init(deadline: Duration, sequence: UInt64, slot: Int) {
      (seconds, attoseconds) = deadline.components
      self.sequence = sequence
      self.slot = slot
    }

    var deadline: Duration {
      Duration(secondsComponent: seconds, attosecondsComponent: attoseconds)
    }

    @inline(__always)
    static func < (lhs: Key, rhs: Key) -> Bool {
      if lhs.seconds != rhs.seconds { return lhs.seconds < rhs.seconds }
      if lhs.attoseconds != rhs.attoseconds { return lhs.attoseconds < rhs.attoseconds }
      return lhs.sequence < rhs.sequence
    }
  }

  /// What running the work needs, kept small (56 bytes) because every run reads one at random;
  /// the deadline and the call site, needed only to list ``entries``, live in parallel arrays.
  private struct Slot {
    /// Stable for the life of the work (a repeating timer keeps it across ticks).
    var id: UInt64
    /// The sequence of the slot's current key; 0 when the slot is free.
    var sequence: UInt64
    var work: Work?
  }

  private var keys: [Key] = []
  private var slots: [Slot] = []
  private var deadlines: [Duration] = []
  private var callSites: [CallSite] = []
  private var freeSlots: [Int] = []
  private var nextSequence: UInt64 = 0
  /// The number of live entries.
  private(set) var count = 0

  /// A fresh sequence number: also the id of new work.
  mutating func makeSequence() -> UInt64 {
    nextSequence &+= 1
    return nextSequence
  }

  /// The live work, in no particular order.
  var entries: [Entry] {
    slots.indices.compactMap { index in
      let slot = slots[index]
      guard slot.sequence != 0, let work = slot.work else { return nil }
      return Entry(
        id: slot.id,
        sequence: slot.sequence,
        deadline: deadlines[index],
        callSite: callSites[index],
        work: work
      )
    }
  }

  /// Adds work due at `deadline`; `id` defaults to a fresh sequence number.
  mutating func insert(
    deadline: Duration,
    callSite: CallSite,
    work: Work,
    id: UInt64? = nil
  ) -> Handle {
    let sequence = makeSequence()
    let slot = Slot(id: id ?? sequence, sequence: sequence, work: work)
    let index: Int
    if let free = freeSlots.popLast() {
      index = free
      slots[index] = slot
      deadlines[index] = deadline
      callSites[index] = callSite
    } else {
      index = slots.count
      slots.append(slot)
      deadlines.append(deadline)
      callSites.append(callSite)
    }
    count += 1
    push(Key(deadline: deadline, sequence: sequence, slot: index))
    return Handle(slot: index, id: slot.id)
  }

  /// Removes the work, returning it if it was still live.
  mutating func remove(_ handle: Handle) -> Work? {
    guard slots[handle.slot].sequence != 0, slots[handle.slot].id == handle.id else { return nil }
    return free(handle.slot)
  }

  /// The deadline of the earliest live work, dropping stale keys on the way.
  mutating func nextDeadline() -> Duration? {
    while let top = keys.first {
      if slots[top.slot].sequence == top.sequence { return top.deadline }
      popKey()
    }
    return nil
  }

  /// Takes the earliest live work due by `limit` (any, when nil). One-shot work and sleepers leave
  /// the queue; a repeating timer is moved to its next tick, behind everything already scheduled
  /// for that instant.
  mutating func popEarliest(dueBy limit: Duration?) -> (id: UInt64, deadline: Duration, work: Work)? {
    while let top = keys.first {
      guard slots[top.slot].sequence == top.sequence else {
        popKey()
        continue
      }
      if let limit, top.deadline > limit { return nil }
      popKey()
      let id = slots[top.slot].id
      if case .repeating(let interval, _) = slots[top.slot].work {
        let sequence = makeSequence()
        let next = top.deadline + interval
        slots[top.slot].sequence = sequence
        deadlines[top.slot] = next
        push(Key(deadline: next, sequence: sequence, slot: top.slot))
        return (id, top.deadline, slots[top.slot].work!)
      }
      return (id, top.deadline, free(top.slot)!)
    }
    return nil
  }

  /// Removes every entry and returns them.
  mutating func removeAll() -> [Entry] {
    let live = entries
    keys = []
    slots = []
    deadlines = []
    callSites = []
    freeSlots = []
    count = 0
    return live
  }

  private mutating func free(_ slot: Int) -> Work? {
    slots[slot].sequence = 0
    freeSlots.append(slot)
    count -= 1
    return slots[slot].work.take()
  }

  private mutating func push(_ key: Key) {
    keys.append(key)
    var child = keys.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard key < keys[parent] else { break }
      keys[child] = keys[parent]
      child = parent
    }
    keys[child] = key
  }

  private mutating func popKey() {
    let last = keys.removeLast()
    guard !keys.isEmpty else { return }
    let n = keys.count
    var parent = 0
    while true {
      var child = 2 * parent + 1
      guard child < n else { break }
      if child + 1 < n, keys[child + 1] < keys[child] { child += 1 }
      guard keys[child] < last else { break }
      keys[parent] = keys[child]
      parent = child
    }
    keys[parent] = last
  }
}
