import Effects
import Testing

@testable import EffectsTestSupport

/// The table a scope finds its tasks in, checked against a `Dictionary` doing the same work: its
/// removal moves entries back within their runs, which is where a lookup could stop early and miss.
struct TaskTableTests {
  @Test func aTaskIsFoundOnlyWithTheIDItWasRecordedWith() {
    var table = TaskTable<String>()
    table.insert(0x1000, id: 7, value: "first")
    #expect(table.contains(0x1000, id: 7))
    #expect(table.value(at: 0x1000, id: 7) == "first")
    // A later task at the same address is another task.
    #expect(!table.contains(0x1000, id: 8))
    #expect(table.value(at: 0x1000, id: 8) == nil)
    #expect(!table.contains(0x2000, id: 7))

    table.insert(0x1000, id: 8, value: "second")
    #expect(table.count == 1)
    #expect(table.value(at: 0x1000, id: 8) == "second")
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

  @Test func removingByValueKeepsTheOthers() {
    var table = TaskTable<Int>()
    for index in 1...1_000 { table.insert(UInt(index) << 4, id: UInt64(index), value: index % 3) }
    table.removeAll { $0 == 0 }
    #expect(table.count == 667)
    for index in 1...1_000 {
      let address = UInt(index) << 4
      #expect(table.contains(address, id: UInt64(index)) == (index % 3 != 0))
    }
  }

  /// 400 rounds of random inserts and removals over addresses that crowd into few runs (the
  /// same few hundred, 16 bytes apart, as heap objects are), each compared with a dictionary
  /// after every step.
  @Test func randomInsertsAndRemovalsAgreeWithADictionary() {
    var generator = RandomSource(seed: 32)
    var deviations = 0
    for _ in 0..<400 {
      var table = TaskTable<UInt64>()
      var model: [UInt: UInt64] = [:]
      var lastID: [UInt: UInt64] = [:]
      for step in 0..<300 {
        let address = UInt(Int.random(in: 1...200, using: &generator)) << 4
        if Bool.random(using: &generator) || model.isEmpty {
          let id = UInt64(step)
          table.insert(address, id: id, value: id &* 3)
          model[address] = id
          lastID[address] = id
        } else {
          table.remove(address)
          model[address] = nil
        }
        if table.count != model.count { deviations += 1 }
      }
      for index in 1...200 {
        let address = UInt(index) << 4
        let expected = model[address]
        let found = expected.flatMap { table.value(at: address, id: $0) }
        if found != expected.map({ $0 &* 3 }) { deviations += 1 }
        if expected == nil, let last = lastID[address], table.contains(address, id: last) { deviations += 1 }
      }
    }
    #expect(deviations == 0)
  }
}
