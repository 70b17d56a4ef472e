import Effects

/// The test scheduler's pending work: a binary min-heap of keys ordered by (deadline, sequence),
/// over a slab of entries.
///
/// The heap holds only small keys (deadline, sequence, slot), so sifting moves 32 bytes, not a
/// closure and a call site. An entry is removed from the slab at once when it is cancelled; its
/// key stays in the heap until it reaches the top, where its sequence no longer matches the slot's
/// entry and it is skipped ("lazy deletion"). So schedule, cancel and run are O(log n), and the
/// live entries are always exactly the slab's non-nil slots.
struct TimerQueue {
  /// What runs when an entry is due.
  enum Work {
    case once(@Sendable () -> Void)
    case repeating(interval: Duration, @Sendable () -> Void)
    case sleep(UnsafeContinuation<Void, any Error>)
  }

  struct Entry {
    /// Stable for the life of the work (a repeating timer keeps it across ticks).
    var id: UInt64
    /// The sequence of the entry's current key; a key with another sequence is stale.
    var sequence: UInt64
    var deadline: Duration
    var callSite: CallSite
    var work: Work
  }

  struct Key {
    var deadline: Duration
    var sequence: UInt64
    var slot: Int

    @inline(__always)
    static func < (lhs: Key, rhs: Key) -> Bool {
      lhs.deadline < rhs.deadline || (lhs.deadline == rhs.deadline && lhs.sequence < rhs.sequence)
    }
  }

  /// A handle to find an entry again: its slot and its id (slots are reused).
  struct Handle: Sendable {
    var slot: Int
    var id: UInt64
  }

  private var keys: [Key] = []
  private(set) var entries: [Entry?] = []
  private var freeSlots: [Int] = []
  private var nextSequence: UInt64 = 0
  /// The number of live entries.
  private(set) var count = 0

  /// A fresh sequence number: also the id of new work.
  mutating func makeSequence() -> UInt64 {
    nextSequence &+= 1
    return nextSequence
  }

  /// Adds work due at `deadline`; `id` defaults to a fresh sequence number.
  mutating func insert(
    deadline: Duration,
    callSite: CallSite,
    work: Work,
    id: UInt64? = nil
  ) -> Handle {
    let sequence = makeSequence()
    let entry = Entry(id: id ?? sequence, sequence: sequence, deadline: deadline, callSite: callSite, work: work)
    let slot: Int
    if let free = freeSlots.popLast() {
      slot = free
      entries[slot] = entry
    } else {
      slot = entries.count
      entries.append(entry)
    }
    count += 1
    push(Key(deadline: deadline, sequence: sequence, slot: slot))
    return Handle(slot: slot, id: entry.id)
  }

  /// Moves a live entry (a repeating timer after a tick) to a new deadline, behind everything
  /// already scheduled for that instant.
  mutating func reschedule(_ handle: Handle, to deadline: Duration) {
    guard entries[handle.slot]?.id == handle.id else { return }
    let sequence = makeSequence()
    entries[handle.slot]!.sequence = sequence
    entries[handle.slot]!.deadline = deadline
    push(Key(deadline: deadline, sequence: sequence, slot: handle.slot))
  }

  /// Removes the entry, returning it if it was still live.
  mutating func remove(_ handle: Handle) -> Entry? {
    guard let entry = entries[handle.slot], entry.id == handle.id else { return nil }
    entries[handle.slot] = nil
    freeSlots.append(handle.slot)
    count -= 1
    return entry
  }

  /// The deadline of the earliest live entry, dropping stale keys on the way.
  mutating func nextDeadline() -> Duration? {
    while let top = keys.first {
      if let entry = entries[top.slot], entry.sequence == top.sequence { return top.deadline }
      popKey()
    }
    return nil
  }

  /// Takes the earliest live entry off the heap. A one-shot entry or a sleeper leaves the slab; a
  /// repeating entry stays (its caller reschedules or removes it).
  mutating func popEarliest() -> (handle: Handle, entry: Entry)? {
    while let top = keys.first {
      popKey()
      guard let entry = entries[top.slot], entry.sequence == top.sequence else { continue }
      let handle = Handle(slot: top.slot, id: entry.id)
      if case .repeating = entry.work {
        return (handle, entry)
      }
      _ = remove(handle)
      return (handle, entry)
    }
    return nil
  }

  /// Removes every entry and returns them.
  mutating func removeAll() -> [Entry] {
    let live = entries.compactMap { $0 }
    keys = []
    entries = []
    freeSlots = []
    count = 0
    return live
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
