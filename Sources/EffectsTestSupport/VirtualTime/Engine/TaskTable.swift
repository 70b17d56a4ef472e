/// Tasks by address: each with the runtime id it had when it was recorded (an address is reused
/// once its task is freed, an id never), and the address of its owner, if the table keeps one.
///
/// Every job a scope queues is looked up here, so the table is made for the lookup that misses the
/// cache: one flat array, open addressing with linear probing, an entry's address, id and owner
/// side by side. A `Dictionary` keeps its keys, its values and its occupancy in three arrays, so a
/// lookup in a table too large for the cache took three misses. Measured in
/// `sleepers-tasks.1e5.effects` and `sleepers-group.1e5.effects` (see `Benchmarks/README.md`).
///
/// The table is not generic, and its entries hold no reference: three plain words. Users build
/// this library in debug (`swift test`), where generic code is not specialised. A generic table
/// asked the runtime for its entry's metadata, and retained and released the owner, at every step
/// of every probe: with a scan at each scope's end, that made the debug suite of
/// `Benchmarks/Suites` 6.8 times slower (#40).
struct TaskTable {
  private struct Entry {
    /// 0 where the entry is free: no task is at address 0.
    var address: UInt
    var id: UInt64
    var owner: UnsafeMutableRawPointer?
  }

  /// A power of two, at least twice ``count``.
  private var entries: [Entry]
  /// How many tasks the table holds.
  private(set) var count = 0

  init() {
    self.init(capacityFor: 0)
  }

  private init(capacityFor count: Int) {
    var capacity = 16
    while capacity < count * 2 { capacity *= 2 }
    entries = Array(repeating: Entry(address: 0, id: 0, owner: nil), count: capacity)
  }

  /// Whether the task at `address` was recorded with `id`.
  func contains(_ address: UInt, id: UInt64) -> Bool {
    guard let index = index(of: address) else { return false }
    return entries[index].id == id
  }

  /// The owner recorded with the task at `address`, if it was recorded with `id` (not an earlier
  /// task at the same address) and with an owner.
  func owner(of address: UInt, id: UInt64) -> UnsafeMutableRawPointer? {
    guard let index = index(of: address), entries[index].id == id else { return nil }
    return entries[index].owner
  }

  /// Records the task at `address` (not 0) with `id` and `owner`, replacing what was recorded
  /// there.
  mutating func insert(_ address: UInt, id: UInt64, owner: UnsafeMutableRawPointer? = nil) {
    precondition(address != 0, "a task is never at address 0")
    if (count + 1) * 2 > entries.count { grow() }
    let mask = entries.count - 1
    var index = home(of: address, mask: mask)
    while entries[index].address != 0, entries[index].address != address {
      index = (index + 1) & mask
    }
    if entries[index].address == 0 { count += 1 }
    entries[index] = Entry(address: address, id: id, owner: owner)
  }

  /// Forgets the task at `address`, if it is recorded.
  mutating func remove(_ address: UInt) {
    guard let index = index(of: address) else { return }
    remove(at: index)
  }

  /// Forgets the task at `address` if it is recorded with `id` and `owner`: not when it is
  /// another task, or another owner's.
  mutating func remove(_ address: UInt, id: UInt64, owner: UnsafeMutableRawPointer?) {
    guard let index = index(of: address), entries[index].id == id, entries[index].owner == owner else { return }
    remove(at: index)
  }

  private mutating func remove(at index: Int) {
    var hole = index
    count -= 1
    // Backward-shift deletion: every entry after the hole in its run that may move to the hole
    // (its home is not between the hole and itself) moves, so no lookup ever stops early.
    let mask = entries.count - 1
    var next = (hole + 1) & mask
    while entries[next].address != 0 {
      let home = home(of: entries[next].address, mask: mask)
      if (next &- home) & mask >= (next &- hole) & mask {
        entries[hole] = entries[next]
        hole = next
      }
      next = (next + 1) & mask
    }
    entries[hole] = Entry(address: 0, id: 0, owner: nil)
  }

  /// Calls `body` with the address and id of every task recorded.
  func forEach(_ body: (_ address: UInt, _ id: UInt64) -> Void) {
    for index in entries.indices where entries[index].address != 0 {
      body(entries[index].address, entries[index].id)
    }
  }

  private func index(of address: UInt) -> Int? {
    // 0 marks a free entry: no task is there.
    guard address != 0 else { return nil }
    let mask = entries.count - 1
    var index = home(of: address, mask: mask)
    while true {
      let found = entries[index].address
      if found == address { return index }
      if found == 0 { return nil }
      index = (index + 1) & mask
    }
  }

  /// Where the search for `address` starts: Fibonacci hashing of the address without its low
  /// bits, which are the same for every heap object.
  private func home(of address: UInt, mask: Int) -> Int {
    Int(truncatingIfNeeded: ((address >> 4) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
  }

  private mutating func grow() {
    let old = entries
    self = TaskTable(capacityFor: entries.count)
    for entry in old where entry.address != 0 { insert(entry.address, id: entry.id, owner: entry.owner) }
  }
}
