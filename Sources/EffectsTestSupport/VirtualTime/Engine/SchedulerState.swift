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
  }
}

// MARK: - A sleeper's life, as a state machine

extension TestScheduler.State {
  /// A sleeper's place until it is resumed: its queue entry once it has registered.
  ///
  /// A slot is in one of three states, and every transition is one method below, run under the
  /// scheduler's lock (or on a plain value, in `SleeperStateMachineTests`):
  ///
  /// | from | transition | to | answers |
  /// | --- | --- | --- | --- |
  /// | free | ``reserveSleeper()`` (the task calls `sleep`) | reserved | a ticket |
  /// | reserved | ``registerSleeper(_:until:at:continuation:onMainActor:)`` (the task suspends) | registered | true |
  /// | free (the ticket is stale) | ``registerSleeper(_:until:at:continuation:onMainActor:)`` | free | false: the task throws `CancellationError` |
  /// | registered | ``registerSleeper(_:until:at:continuation:onMainActor:)`` again | registered, unchanged | false |
  /// | reserved, registered | ``markSleeperOffLane(_:)`` | the same | |
  /// | registered | ``wakeSleeper(at:id:)`` (its entry was taken out as due) | free | what it said of itself |
  /// | reserved, registered | ``cancelSleeper(_:)`` (the task was cancelled) | free | the continuation, when it had registered |
  /// | registered | ``strandSleeper(_:)`` (the test itself slept, and nothing would wake it) | free | the continuation and its deadline |
  /// | reserved, registered | ``endUnattendedSleeper(_:sleptAt:)`` (no scope, time never moved) | free | the continuation, when it had registered |
  /// | reserved, registered | ``removeAll()`` (the scope or the scheduler ends) | free | every registered continuation |
  ///
  /// Each registered continuation is answered by exactly one transition, once: the one that frees
  /// its slot. A ticket names its slot and the slot's generation, which moves on each time the slot
  /// is freed, so a stale ticket never names a later sleeper.
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

  /// What a sleeper said of itself when its entry was taken out as due.
  struct WokenSleeper {
    /// Where it slept (nil when the entry's slot no longer names it).
    var sleptAt: CallSite?
    var offLane: Bool
    var onMainActor: Bool
  }

  /// free → reserved: a slot for a new sleeper.
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

  /// Whether `ticket`'s sleeper has registered its continuation and waits in the queue.
  func isRegistered(_ ticket: SleeperTicket) -> Bool {
    isReserved(ticket) && sleeperSlots[ticket.index].handle != nil
  }

  /// reserved → registered: the sleeper's continuation waits in the queue until `deadline` turns
  /// the current offset into its wake-up (never before now). False, changing nothing, when the
  /// ticket no longer names a sleeper — it was cancelled or emptied out on its way here, and the
  /// caller resumes the continuation with `CancellationError` — or has registered already.
  mutating func registerSleeper(
    _ ticket: SleeperTicket,
    until deadline: (Duration) -> Duration,
    at callSite: CallSite,
    continuation: UnsafeContinuation<Void, any Error>,
    onMainActor: Bool
  ) -> Bool {
    guard isReserved(ticket), sleeperSlots[ticket.index].handle == nil else { return false }
    let index = ticket.index
    sleeperSlots[index].onMainActor = onMainActor
    sleeperSlots[index].handle = queue.insert(
      deadline: max(deadline(elapsed), elapsed),
      callSite: callSite,
      work: .sleep(continuation, sleeper: index),
      id: sleeperSlots[index].id
    )
    return true
  }

  /// Marks a reserved or registered sleeper as sleeping off the scope's lanes; nothing once it is
  /// gone.
  mutating func markSleeperOffLane(_ ticket: SleeperTicket) {
    if isReserved(ticket) { sleeperSlots[ticket.index].offLane = true }
  }

  /// registered → free, for the sleeper of slot `index` whose entry `id` the queue just took out
  /// as due (the caller resumes the continuation the entry held). Its call site is read before the
  /// queue reuses the entry's slot. When the slot no longer names that entry, nothing is freed.
  mutating func wakeSleeper(at index: Int, id: UInt64) -> WokenSleeper {
    guard index < sleeperSlots.count, sleeperSlots[index].id == id, let handle = sleeperSlots[index].handle else {
      return WokenSleeper(sleptAt: nil, offLane: false, onMainActor: false)
    }
    let woken = WokenSleeper(
      sleptAt: queue.callSite(ofTaken: handle.slot),
      offLane: sleeperSlots[index].offLane,
      onMainActor: sleeperSlots[index].onMainActor
    )
    freeSleeper(at: index)
    return woken
  }

  /// reserved or registered → free: the sleeping task was cancelled. Answers its continuation,
  /// out of the queue, when it had registered (the caller resumes it with `CancellationError`);
  /// nil when it had not (its registration will find the ticket gone) or was already answered.
  mutating func cancelSleeper(_ ticket: SleeperTicket) -> UnsafeContinuation<Void, any Error>? {
    guard isReserved(ticket) else { return nil }
    let handle = sleeperSlots[ticket.index].handle
    freeSleeper(at: ticket.index)
    guard let handle, case .sleep(let continuation, _) = queue.remove(handle) else { return nil }
    return continuation
  }

  /// registered → free: the test's own sleep, which nothing else would ever wake. Answers its
  /// continuation and the deadline it slept until; nil when it is not registered.
  mutating func strandSleeper(_ ticket: SleeperTicket) -> (UnsafeContinuation<Void, any Error>, deadline: Duration)? {
    guard isReserved(ticket), let handle = sleeperSlots[ticket.index].handle,
      let deadline = queue.deadline(of: handle)
    else { return nil }
    guard let continuation = cancelSleeper(ticket) else { return nil }
    return (continuation, deadline)
  }

  /// reserved or registered → free, for a sleep outside any scope on a scheduler nobody holds,
  /// when time is still at `sleptAt`: as ``cancelSleeper(_:)``. Nil, changing nothing, when a scope
  /// is open or time has moved since (someone advances: the sleep is attended).
  mutating func endUnattendedSleeper(
    _ ticket: SleeperTicket,
    sleptAt offset: Duration
  ) -> UnsafeContinuation<Void, any Error>? {
    guard scope == nil, elapsed == offset else { return nil }
    return cancelSleeper(ticket)
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

  /// Frees the slot at `index` for the next sleeper, whose ticket will not match this one's.
  private mutating func freeSleeper(at index: Int) {
    sleeperSlots[index].id = 0
    sleeperSlots[index].handle = nil
    sleeperSlots[index].offLane = false
    sleeperSlots[index].onMainActor = false
    sleeperSlots[index].generation &+= 1
    freeSleeperSlots.append(index)
  }
}

/// The test scheduler's pending work: a radix heap of keys ordered by (deadline, sequence), over a
/// slab of slots.
///
/// A radix heap works because virtual time never goes back: every deadline ever inserted is at or
/// after the last one taken out (`base`). Keys live in 65 buckets by the highest bit in which their
/// deadline, in whole nanoseconds, differs from `base`: bucket 0 holds the deadlines equal to
/// `base`, bucket `b` those that first differ in bit `b - 1`. Inserting is an append. Taking the
/// earliest takes from bucket 0; when it is empty, the first non-empty bucket is split: its earliest
/// deadline becomes `base`, and each of its keys moves to a lower bucket. A key only ever moves
/// down, at most 64 times and usually a handful, so schedule and run cost O(1) amortized, and
/// buckets are read front to back, which is what keeps a million timers fast (a binary heap's
/// random sifting through memory is what made them slow).
///
/// Bucket 0 is a small binary heap on the exact order: the sub-nanosecond rest of the deadline,
/// then the sequence (first scheduled first at one instant). Deadlines too far away to count in
/// nanoseconds (past about 584 years) wait in a binary heap of their own, on their exact
/// `Duration`: everything else comes before them.
///
/// Virtual time ends at ``never``, `.seconds(Int64.max)`: work due there or later is never due. It
/// keeps its slot (listed, cancellable) but has no key in any bucket or heap, so nothing takes it
/// out, whatever the limit. Every deadline is computed without overflow (``deadline(_:plus:)``), so
/// no duration, however large, reaches `Duration.components` past what they hold.
///
/// Cancelling frees the slot at once; its key stays where it is, moves along with its bucket
/// without being looked at, and is dropped when it reaches bucket 0, where its sequence no longer
/// matches the slot's ("lazy deletion"). Splitting at a dropped key's deadline is still sound: it
/// is never later than the live work, and a split only happens once that deadline is due, so the
/// scheduler's time is past it.
struct TimerQueue {
  /// What runs when an entry is due.
  enum Work {
    case once(@Sendable () -> Void)
    // Indirect: the other cases take two words, and every timer pays for the largest.
    indirect case repeating(interval: Duration, @Sendable () -> Void)
    /// A sleeping task (unsafe for speed; see `TestScheduler.sleep(for:)`, which names the
    /// benchmark), and its slot among the scheduler's sleepers.
    case sleep(UnsafeContinuation<Void, any Error>, sleeper: Int)
  }

  /// Live work, as ``TimerQueue/entries`` lists it.
  struct Entry {
    var id: UInt64
    var sequence: UInt64
    var deadline: Duration
    var callSite: CallSite
    var work: Work
  }

  /// Where virtual time ends: `.seconds(Int64.max)` from the start, the last whole second whose
  /// `Duration.components` still hold. Work due at or past it is due never — not even when an advance
  /// reaches this instant — as a live `DispatchScheduler` never runs a delay of `.seconds(Int.max)`.
  static let never = Duration.seconds(Int64.max)

  /// The deadline `delay` (zero or more) after `start`, or ``never`` when that is at or past it;
  /// never overflows, however large `delay` is.
  static func deadline(_ start: Duration, plus delay: Duration) -> Duration {
    guard start < never, delay < never - start else { return never }
    return start + delay
  }

  /// A handle to find work again: its slot and its id (slots are reused).
  struct Handle: Sendable {
    var slot: Int
    var id: UInt64
  }

  /// A deadline split into whole nanoseconds (`coarse`, what buckets are chosen by) and the
  /// attoseconds below them (`fine`), plus the tie-breaking sequence and the slot: 24 bytes.
  struct Key {
    var coarse: UInt64
    var sequence: UInt64
    var slot: UInt32
    var fine: UInt32

    /// Every deadline from this many seconds on (about 584 years) is too far to count in
    /// nanoseconds in `coarse` (the limit itself is 2⁶⁴ ns, 0.29 s before it).
    static let farSeconds: Int64 = 18_446_744_074

    /// The key of `deadline`, or nil when it is too far away to count in nanoseconds.
    ///
    /// It takes the duration's attoseconds as two words from the runtime door, because it pays in
    /// the benchmark `callbacks.1e4.effects` (every schedule makes a key): `Duration.components`
    /// divides 128 bits in software, 376 of the 3,685 instructions of a callback; one hardware
    /// division here.
    ///
    /// `twoWords`: ``RuntimeDoor/durationIsTwoWords``, which the queue reads once, not per key.
    init?(deadline: Duration, sequence: UInt64, slot: Int, twoWords: Bool = RuntimeDoor.durationIsTwoWords) {
      let (low, high) = RuntimeDoor.attosecondWords(of: deadline, twoWords: twoWords)
      // Deadlines are never negative (elapsed time and delays are not); the nanoseconds must fit
      // in 64 bits, so the quotient below cannot overflow.
      guard high >= 0, UInt64(high) < Self.nanosecond else { return nil }
      let (nanoseconds, rest) = Self.nanosecond.dividingFullWidth((high: UInt64(high), low: low))
      coarse = nanoseconds
      fine = UInt32(truncatingIfNeeded: rest)
      self.sequence = sequence
      self.slot = UInt32(slot)
    }

    /// Attoseconds in a nanosecond.
    private static let nanosecond: UInt64 = 1_000_000_000

    /// The deadline the key was made from.
    var deadline: Duration {
      deadline(twoWords: RuntimeDoor.durationIsTwoWords)
    }

    /// The deadline the key was made from (`twoWords` as in ``init(deadline:sequence:slot:twoWords:)``).
    func deadline(twoWords: Bool) -> Duration {
      let (high, low) = coarse.multipliedFullWidth(by: Self.nanosecond)
      let (sum, carry) = low.addingReportingOverflow(UInt64(fine))
      return RuntimeDoor.duration(attosecondWords: (sum, Int64(high) + (carry ? 1 : 0)), twoWords: twoWords)
    }

    /// The exact order: deadline, then sequence.
    @inline(__always)
    static func < (lhs: Key, rhs: Key) -> Bool {
      if lhs.coarse != rhs.coarse { return lhs.coarse < rhs.coarse }
      if lhs.fine != rhs.fine { return lhs.fine < rhs.fine }
      return lhs.sequence < rhs.sequence
    }
  }

  /// The key of a deadline past ``Key/farSeconds``: the exact deadline, rarely needed.
  fileprivate struct FarKey {
    var deadline: Duration
    var sequence: UInt64
    var slot: Int

    static func < (lhs: FarKey, rhs: FarKey) -> Bool {
      (lhs.deadline, lhs.sequence) < (rhs.deadline, rhs.sequence)
    }
  }

  /// What running the work needs; the deadline and the call site, needed only to list
  /// ``entries``, live in parallel arrays.
  private struct Slot {
    /// Stable for the life of the work (a repeating timer keeps it across ticks).
    var id: UInt64
    /// The sequence of the slot's current key; 0 when the slot is free.
    var sequence: UInt64
    var work: Work?
  }

  /// ``RuntimeDoor/durationIsTwoWords``, read once for the queue's keys.
  private let twoWords = RuntimeDoor.durationIsTwoWords
  private var slots: [Slot] = []
  private var deadlines: [Duration] = []
  /// Where each slot's work was scheduled: an index into ``sites``, 4 bytes where a `CallSite`
  /// takes 64 — it pays in the benchmark `callbacks.1e4.effects`, whose timers no longer fit the
  /// caches with their call sites beside them.
  private var callSites: [UInt32] = []
  /// Every call site work was scheduled from, once each (by the addresses of its strings).
  private var sites: [CallSite] = []
  private var siteIndices: [SiteKey: UInt32] = [:]
  /// The last call site looked up, and its index: work is mostly scheduled in runs from one line.
  private var lastSite: (key: SiteKey, index: UInt32)?
  private var freeSlots: [Int] = []
  private var nextSequence: UInt64 = 0
  /// The number of live entries.
  private(set) var count = 0
  /// How many live entries are due ``never``: they have no key.
  private var neverCount = 0

  /// Every key's `coarse` is at least this, and so is every deadline inserted from now on.
  private var base: UInt64 = 0
  /// Bucket 0, keys whose `coarse` equals `base`, as a binary min-heap.
  private var now: [Key] = []
  /// Buckets 1...64; `later[b - 1]` is bucket `b`.
  private var later: [[Key]] = Array(repeating: [], count: 64)
  /// Bit `b - 1` is set when bucket `b` may hold keys (live or not).
  private var occupied: UInt64 = 0
  /// Deadlines past ``Key/farSeconds``, as a binary min-heap.
  private var far: [FarKey] = []

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
        callSite: sites[Int(callSites[index])],
        work: work
      )
    }
  }

  /// Adds work due at `deadline`, which must not be before the last deadline taken out; `id`
  /// defaults to a fresh sequence number. A deadline past ``never``, and a repeating interval
  /// longer than it, count as ``never``: they mean the same, and stay printable.
  mutating func insert(
    deadline: Duration,
    callSite: CallSite,
    work: Work,
    id: UInt64? = nil
  ) -> Handle {
    let deadline = min(deadline, Self.never)
    var work = work
    if case .repeating(let interval, let action) = work, interval > Self.never {
      work = .repeating(interval: Self.never, action)
    }
    let sequence = makeSequence()
    let slot = Slot(id: id ?? sequence, sequence: sequence, work: work)
    let site = index(of: callSite)
    let index: Int
    if let free = freeSlots.popLast() {
      index = free
      slots[index] = slot
      deadlines[index] = deadline
      callSites[index] = site
    } else {
      index = slots.count
      slots.append(slot)
      deadlines.append(deadline)
      callSites.append(site)
    }
    count += 1
    add(deadline: deadline, sequence: sequence, slot: index)
    return Handle(slot: index, id: slot.id)
  }

  /// Removes the work, returning it if it was still live.
  mutating func remove(_ handle: Handle) -> Work? {
    // The slot may be gone: `removeAll` empties the slab when the scheduler goes.
    guard handle.slot < slots.count, slots[handle.slot].sequence != 0, slots[handle.slot].id == handle.id else {
      return nil
    }
    return free(handle.slot)
  }

  /// The deadline of the work `handle` names, if it is still live.
  func deadline(of handle: Handle) -> Duration? {
    guard handle.slot < slots.count, slots[handle.slot].sequence != 0, slots[handle.slot].id == handle.id else {
      return nil
    }
    return deadlines[handle.slot]
  }

  /// The deadline of the earliest live work that is ever due (not ``never``). O(n): for reports, not
  /// for running work.
  func nextDeadline() -> Duration? {
    slots.indices.lazy.filter { self.slots[$0].sequence != 0 && self.deadlines[$0] < Self.never }
      .map { self.deadlines[$0] }.min()
  }

  /// Takes the earliest live work due by `limit` (any, when nil), never work due ``never``. One-shot
  /// work and sleepers leave the queue; a repeating timer is moved to its next tick, behind
  /// everything already scheduled for that instant.
  mutating func popEarliest(dueBy limit: Duration?) -> (id: UInt64, deadline: Duration, work: Work)? {
    guard count > neverCount else {
      dropDeadKeys()
      return nil
    }
    let limitKey = limit.flatMap { Key(deadline: $0, sequence: .max, slot: 0, twoWords: twoWords) }
    while true {
      if let top = now.first {
        guard isLive(top) else {
          Heap.pop(&now)
          continue
        }
        if let limitKey, limitKey < top { return nil }
        Heap.pop(&now)
        return take(slot: Int(top.slot), deadline: top.deadline(twoWords: twoWords))
      }
      if occupied != 0 {
        let bucket = occupied.trailingZeroBitCount + 1
        let earliest = later[bucket - 1].min { $0 < $1 }!
        // Every live key is at or after `earliest` (dead or not): nothing is due when it is not.
        if let limitKey, limitKey < earliest { return nil }
        split(bucket: bucket, at: earliest.coarse)
        continue
      }
      guard let top = far.first else { return nil }
      guard slots[top.slot].sequence == top.sequence else {
        Heap.pop(&far)
        continue
      }
      if let limit, top.deadline > limit { return nil }
      Heap.pop(&far)
      return take(slot: top.slot, deadline: top.deadline)
    }
  }

  /// Hands out the work in `slot`, which was due at `deadline`: a repeating timer is queued again
  /// at its next tick.
  private mutating func take(slot: Int, deadline: Duration) -> (id: UInt64, deadline: Duration, work: Work) {
    let id = slots[slot].id
    if case .repeating(let interval, _) = slots[slot].work {
      let sequence = makeSequence()
      let next = Self.deadline(deadline, plus: interval)
      slots[slot].sequence = sequence
      deadlines[slot] = next
      add(deadline: next, sequence: sequence, slot: slot)
      return (id, deadline, slots[slot].work!)
    }
    return (id, deadline, free(slot)!)
  }

  /// Where the work taken last from `slot` was scheduled: still readable after
  /// ``popEarliest(dueBy:)`` took it, until the next insert reuses the slot.
  func callSite(ofTaken slot: Int) -> CallSite {
    sites[Int(callSites[slot])]
  }

  /// The index of `callSite` in ``sites``, added when it is new.
  private mutating func index(of callSite: CallSite) -> UInt32 {
    guard let key = SiteKey(callSite) else {
      sites.append(callSite)
      return UInt32(truncatingIfNeeded: sites.count - 1)
    }
    if let lastSite, lastSite.key == key { return lastSite.index }
    let index =
      siteIndices[key]
      ?? {
        sites.append(callSite)
        let index = UInt32(truncatingIfNeeded: sites.count - 1)
        siteIndices[key] = index
        return index
      }()
    lastSite = (key, index)
    return index
  }

  /// Removes every entry and returns them.
  mutating func removeAll() -> [Entry] {
    // Nothing was ever inserted (since the last removal): nothing to take or reset. A scope
    // removes all three times, and most scopes of a suite end with an empty queue; in a debug
    // build, resetting the empty storage cost 17k instructions a time (#40).
    guard !slots.isEmpty else { return [] }
    let live = entries
    slots = []
    deadlines = []
    callSites = []
    sites = []
    siteIndices = [:]
    lastSite = nil
    freeSlots = []
    count = 0
    neverCount = 0
    dropDeadKeys()
    return live
  }

  // MARK: - Buckets

  private func isLive(_ key: Key) -> Bool {
    slots[Int(key.slot)].sequence == key.sequence
  }

  /// The bucket `coarse` belongs in, relative to `base`.
  private func bucket(of coarse: UInt64) -> Int {
    64 - (coarse ^ base).leadingZeroBitCount
  }

  private mutating func add(deadline: Duration, sequence: UInt64, slot: Int) {
    guard deadline < Self.never else {
      neverCount += 1
      return
    }
    guard let key = Key(deadline: deadline, sequence: sequence, slot: slot, twoWords: twoWords) else {
      return Heap.push(FarKey(deadline: deadline, sequence: sequence, slot: slot), into: &far)
    }
    precondition(key.coarse >= base, "TimerQueue: a deadline before the last one taken out")
    let bucket = bucket(of: key.coarse)
    guard bucket > 0 else { return Heap.push(key, into: &now) }
    later[bucket - 1].append(key)
    occupied |= 1 << UInt64(bucket - 1)
  }

  /// Empties every bucket: called when no work is due (live work is due ``never``, with no key), so
  /// every key left is dead.
  private mutating func dropDeadKeys() {
    now.removeAll()
    far.removeAll()
    while occupied != 0 {
      let bucket = occupied.trailingZeroBitCount
      later[bucket].removeAll()
      occupied &= ~(1 << UInt64(bucket))
    }
  }

  /// Makes `coarse`, the earliest deadline of `bucket`, the new `base`, and moves that bucket's
  /// keys down: each lands in bucket 0 or in a lower one. Bucket 0 is empty when this is called.
  private mutating func split(bucket: Int, at coarse: UInt64) {
    base = coarse
    var keys: [Key] = []
    swap(&keys, &later[bucket - 1])
    occupied &= ~(1 << UInt64(bucket - 1))
    for key in keys {
      let target = self.bucket(of: key.coarse)
      if target == 0 {
        Heap.push(key, into: &now)
      } else {
        later[target - 1].append(key)
        occupied |= 1 << UInt64(target - 1)
      }
    }
    // Give the emptied bucket its storage back, so splitting does not allocate every time.
    keys.removeAll(keepingCapacity: true)
    swap(&keys, &later[bucket - 1])
  }

  private mutating func free(_ slot: Int) -> Work? {
    if deadlines[slot] >= Self.never { neverCount -= 1 }
    slots[slot].sequence = 0
    freeSlots.append(slot)
    count -= 1
    return slots[slot].work.take()
  }
}

/// Binary min-heap operations on an array, for the two small heaps of ``TimerQueue``.
private enum Heap {
  static func push<Key: HeapKey>(_ key: Key, into keys: inout [Key]) {
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

  static func pop<Key: HeapKey>(_ keys: inout [Key]) {
    let last = keys.removeLast()
    guard !keys.isEmpty else { return }
    let count = keys.count
    var parent = 0
    while true {
      var child = 2 * parent + 1
      guard child < count else { break }
      if child + 1 < count, keys[child + 1] < keys[child] { child += 1 }
      guard keys[child] < last else { break }
      keys[parent] = keys[child]
      parent = child
    }
    keys[parent] = last
  }
}

/// What ``Heap`` orders.
private protocol HeapKey {
  static func < (lhs: Self, rhs: Self) -> Bool
}

extension TimerQueue.Key: HeapKey {}
extension TimerQueue.FarKey: HeapKey {}

/// A call site, by the addresses of its two strings and its line and column: equal for the same
/// call, and cheap to compare and hash (a `CallSite` compares its strings' text). Two keys for
/// one place (two copies of one literal) only cost a second entry.
private struct SiteKey: Hashable {
  let fileID: UInt
  let filePath: UInt
  let line: UInt
  let column: UInt

  /// Nil for a string held as a single scalar rather than at an address (never a `#fileID`).
  init?(_ site: CallSite) {
    guard site.fileID.hasPointerRepresentation, site.filePath.hasPointerRepresentation else { return nil }
    fileID = UInt(bitPattern: site.fileID.utf8Start)
    filePath = UInt(bitPattern: site.filePath.utf8Start)
    line = site.line
    column = site.column
  }
}
