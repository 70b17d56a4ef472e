import Effects
import Testing

@testable import EffectsTestSupport

/// The table a scope finds its tasks in, checked against a `Dictionary` doing the same work: its
/// removal moves entries back within their runs, which is where a lookup could stop early and miss.
struct TaskTableTests {
  /// Owners for the tests: addresses no object is at.
  private static var first: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 0x10)! }
  private static var second: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 0x20)! }

  @Test func aTaskIsFoundOnlyWithTheIDItWasRecordedWith() {
    var table = TaskTable()
    table.insert(0x1000, id: 7, owner: Self.first)
    #expect(table.contains(0x1000, id: 7))
    #expect(table.owner(of: 0x1000, id: 7) == Self.first)
    // A later task at the same address is another task.
    #expect(!table.contains(0x1000, id: 8))
    #expect(table.owner(of: 0x1000, id: 8) == nil)
    #expect(!table.contains(0x2000, id: 7))

    table.insert(0x1000, id: 8, owner: Self.second)
    #expect(table.count == 1)
    #expect(table.owner(of: 0x1000, id: 8) == Self.second)
    #expect(!table.contains(0x1000, id: 7))

    table.remove(0x1000)
    #expect(table.count == 0)
    #expect(!table.contains(0x1000, id: 8))
    table.remove(0x1000)
    #expect(table.count == 0)

    // Address 0 marks a free entry: it is never a task, nor found.
    #expect(!table.contains(0, id: 0))
    table.remove(0)
    #expect(table.count == 0)
  }

  @Test func aTaskRecordedWithoutAnOwnerIsFoundWithNone() {
    var table = TaskTable()
    table.insert(0x1000, id: 7)
    #expect(table.contains(0x1000, id: 7))
    #expect(table.owner(of: 0x1000, id: 7) == nil)
  }

  @Test func removingATaskOfAnOwnerLeavesAnotherTaskOrAnotherOwnersAlone() {
    var table = TaskTable()
    table.insert(0x1000, id: 7, owner: Self.first)
    table.insert(0x2000, id: 8, owner: Self.second)
    // Another task at the address: kept.
    table.remove(0x1000, id: 6, owner: Self.first)
    // Another owner: kept.
    table.remove(0x2000, id: 8, owner: Self.first)
    #expect(table.count == 2)
    table.remove(0x1000, id: 7, owner: Self.first)
    table.remove(0x2000, id: 8, owner: Self.second)
    #expect(table.count == 0)
  }

  @Test func everyTaskIsVisitedOnce() {
    var table = TaskTable()
    for index in 1...1_000 { table.insert(UInt(index) << 4, id: UInt64(index)) }
    for index in stride(from: 3, through: 1_000, by: 3) { table.remove(UInt(index) << 4) }
    var visited: [UInt: UInt64] = [:]
    table.forEach { address, id in
      #expect(visited.updateValue(id, forKey: address) == nil)
    }
    #expect(visited.count == 667)
    #expect(visited.allSatisfy { $0.key == UInt($0.value) << 4 && $0.value % 3 != 0 })
  }

  /// 400 rounds of random inserts and removals over addresses that crowd into few runs (the
  /// same few hundred, 16 bytes apart, as heap objects are), each compared with a dictionary
  /// after every step.
  @Test func randomInsertsAndRemovalsAgreeWithADictionary() {
    var generator = RandomSource(seed: 32)
    var deviations = 0
    let owners = [Self.first, Self.second]
    for _ in 0..<400 {
      var table = TaskTable()
      var model: [UInt: (id: UInt64, owner: UnsafeMutableRawPointer)] = [:]
      var lastID: [UInt: UInt64] = [:]
      for step in 0..<300 {
        let address = UInt(Int.random(in: 1...200, using: &generator)) << 4
        let owner = owners.randomElement(using: &generator)!
        switch model.isEmpty ? 0 : Int.random(in: 0..<3, using: &generator) {
        case 0:
          let id = UInt64(step)
          table.insert(address, id: id, owner: owner)
          model[address] = (id, owner)
          lastID[address] = id
        case 1:
          table.remove(address)
          model[address] = nil
        default:
          // Removal by owner: only of the task recorded with that id and owner.
          let id = model[address]?.id ?? UInt64(step)
          table.remove(address, id: id, owner: owner)
          if model[address]?.owner == owner { model[address] = nil }
        }
        if table.count != model.count { deviations += 1 }
      }
      for index in 1...200 {
        let address = UInt(index) << 4
        let expected = model[address]
        let found = expected.flatMap { table.owner(of: address, id: $0.id) }
        if found != expected?.owner { deviations += 1 }
        if expected == nil, let last = lastID[address], table.contains(address, id: last) { deviations += 1 }
      }
    }
    #expect(deviations == 0)
  }
}
