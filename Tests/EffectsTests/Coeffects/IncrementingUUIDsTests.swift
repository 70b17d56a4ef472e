import Effects
import EffectsTestSupport
import Foundation
import Testing

@Suite struct IncrementingUUIDsTests {
  @Test func countsUpFromZeroOnePerCall() {
    let uuids = IncrementingUUIDs()
    #expect(uuids().uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(uuids().uuidString == "00000000-0000-0000-0000-000000000001")
    #expect(uuids() == UUID(2))
  }

  @Test func uuidOfANumberIsItsHexadecimalDigitsAtTheEnd() {
    #expect(UUID(255).uuidString == "00000000-0000-0000-0000-0000000000FF")
    #expect(UUID(0x0123_4567_89AB_CDEF).uuidString == "00000000-0000-0000-0123-456789ABCDEF")
    #expect(UUID(.max).uuidString == "00000000-0000-0000-FFFF-FFFFFFFFFFFF")
  }

  @Test func copiesShareOneCounter() {
    let first = IncrementingUUIDs()
    let second = first
    #expect([first(), second(), first()] == [UUID(0), UUID(1), UUID(2)])
  }

  @Test func callsFromManyTasksAtOnceGetEveryNumberExactlyOnce() async {
    var deviations: [Int] = []
    for replay in 0..<300 {
      let uuids = IncrementingUUIDs()
      let made = await withTaskGroup(of: [UUID].self) { group in
        for _ in 0..<8 {
          group.addTask { (0..<125).map { _ in uuids() } }
        }
        return await group.reduce(into: []) { $0 += $1 }
      }
      if made.count != 1_000 || Set(made) != Set((0..<1_000).map { UUID(UInt64($0)) }) {
        deviations.append(replay)
      }
    }
    #expect(deviations == [])
  }

  @Test func everyTestEnvironmentCountsFromZeroAndItsCopiesShareTheCount() {
    let first = Environment.test()
    let copy = first
    #expect(first.uuid() == UUID(0))
    #expect(copy.uuid() == UUID(1))
    #expect(Environment.test().uuid() == UUID(0))
    #expect(first.uuid() == UUID(2))
  }

  @Test(.environment(.test())) func codeReadingTheCurrentEnvironmentGetsTheTestsCounter() {
    #expect(Environment.current.uuid() == UUID(0))
    #expect(Environment.current.uuid() == UUID(1))
  }
}
