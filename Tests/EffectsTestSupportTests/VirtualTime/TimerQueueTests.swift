import Effects
@testable import EffectsTestSupport
import Testing

/// The radix heap behind `TestScheduler`, checked against the obvious model: a list searched for
/// its minimum (deadline, then sequence) on every step.
@Suite struct TimerQueueTests {
  /// What the model knows of one piece of work.
  private struct Modelled {
    var id: UInt64
    var sequence: UInt64
    var deadline: Duration
    var interval: Duration?
    var handle: TimerQueue.Handle
  }

  /// Delays that hit every path: zero (bucket 0), sub-nanosecond rests (the exact order inside one
  /// nanosecond), equal deadlines (first scheduled first), wide spreads (high buckets), and
  /// deadlines far past the 584 years that nanoseconds can count.
  private static func delay(using generator: inout SplitMix) -> Duration {
    switch generator.next() % 8 {
    case 0: .zero
    case 1: .nanoseconds(Int64(generator.next() % 4))
    case 2: Duration(secondsComponent: 0, attosecondsComponent: Int64(generator.next() % 3_000_000_000))
    case 3: .milliseconds(Int64(generator.next() % 1_000))
    case 4: .seconds(Int64(generator.next() % 100_000))
    case 5: .seconds(Int64(generator.next() % 1_000_000_000_000)) + .nanoseconds(Int64(generator.next() % 7))
    case 6: .milliseconds(100 * Int64(generator.next() % 4))
    default: .nanoseconds(Int64(generator.next() % (1 << 40)))
    }
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
  func takesWorkInExactlyTheOrderOfAListSearchedForItsMinimum(seed: UInt64) {
    var generator = SplitMix(seed: seed)
    var queue = TimerQueue()
    var model: [Modelled] = []
    var now = Duration.zero
    // The order of (re-)scheduling: what breaks ties between equal deadlines.
    var scheduled: UInt64 = 0
    let site = CallSite()

    for step in 0..<4_000 {
      switch generator.next() % 10 {
      case 0, 1, 2, 3:
        // Schedule, sometimes repeating.
        let deadline = now + Self.delay(using: &generator)
        let interval: Duration? =
          generator.next() % 6 == 0 ? .nanoseconds(Int64(1 + generator.next() % 2_000_000_000)) : nil
        let work: TimerQueue.Work = interval.map { .repeating(interval: $0, {}) } ?? .once({})
        let handle = queue.insert(deadline: deadline, callSite: site, work: work)
        scheduled += 1
        model.append(
          Modelled(id: handle.id, sequence: scheduled, deadline: deadline, interval: interval, handle: handle)
        )
      case 4:
        // Cancel some work, live or not.
        guard !model.isEmpty else { continue }
        let index = Int(generator.next() % UInt64(model.count))
        let removed = queue.remove(model[index].handle)
        #expect(removed != nil, "step \(step): live work was not found")
        #expect(queue.remove(model[index].handle) == nil, "step \(step): removed twice")
        model.remove(at: index)
      case 5:
        #expect(queue.nextDeadline() == model.map(\.deadline).min(), "step \(step)")
      default:
        // Take what is due by a limit (or anything), as advance and run do.
        let limit: Duration? = generator.next() % 5 == 0 ? nil : now + Self.delay(using: &generator)
        let expected = model.indices.min { lhs, rhs in
          (model[lhs].deadline, model[lhs].sequence) < (model[rhs].deadline, model[rhs].sequence)
        }
        let taken = queue.popEarliest(dueBy: limit)
        guard let expected, limit.map({ model[expected].deadline <= $0 }) ?? true else {
          #expect(taken == nil, "step \(step): took work that is not due")
          if let limit { now = max(now, limit) }
          continue
        }
        let item = model[expected]
        #expect(taken?.id == item.id, "step \(step): took the wrong work")
        #expect(taken?.deadline == item.deadline, "step \(step)")
        now = max(now, item.deadline)
        if let interval = item.interval {
          model[expected].deadline = item.deadline + interval
          // A repeating timer goes behind everything already scheduled for its next tick.
          scheduled += 1
          model[expected].sequence = scheduled
        } else {
          model.remove(at: expected)
        }
      }
      #expect(queue.count == model.count, "step \(step)")
    }
    #expect(Set(queue.entries.map(\.id)) == Set(model.map(\.id)))
    #expect(queue.removeAll().count == model.count)
    #expect(queue.nextDeadline() == nil)
  }

  /// A key reads a `Duration`'s two words of attoseconds directly: it must give back exactly the
  /// deadline it was made from, and order as `Duration` does, across the range it covers.
  @Test func aKeyGivesBackItsDeadlineExactly() throws {
    var random = SplitMix(seed: 7)
    var deadlines: [Duration] = [
      .zero, .nanoseconds(1), Duration(secondsComponent: 0, attosecondsComponent: 1),
      .seconds(18), .seconds(19), .milliseconds(18_446), .seconds(TimerQueue.Key.farSeconds - 1),
    ]
    for _ in 0..<1_000 {
      let seconds = Int64(random.next() % UInt64(TimerQueue.Key.farSeconds - 1))
      let attoseconds = Int64(random.next() % 1_000_000_000_000_000_000)
      deadlines.append(Duration(secondsComponent: seconds, attosecondsComponent: attoseconds))
    }
    for deadline in deadlines {
      let key = try #require(TimerQueue.Key(deadline: deadline, sequence: 1, slot: 0))
      #expect(key.deadline == deadline)
      #expect(key.deadline.components == deadline.components)
    }
    for (a, b) in zip(deadlines, deadlines.dropFirst()) {
      let keyA = try #require(TimerQueue.Key(deadline: a, sequence: 1, slot: 0))
      let keyB = try #require(TimerQueue.Key(deadline: b, sequence: 1, slot: 0))
      #expect((keyA < keyB) == (a < b))
    }
    #expect(TimerQueue.Key(deadline: .seconds(TimerQueue.Key.farSeconds), sequence: 1, slot: 0) == nil)
    #expect(TimerQueue.Key(deadline: .seconds(-1), sequence: 1, slot: 0) == nil)
  }

  @Test func ordersDeadlinesTooFarToCountInNanosecondsExactly() {
    var queue = TimerQueue()
    let far = Duration.seconds(TimerQueue.Key.farSeconds)
    let later = queue.insert(deadline: far + .seconds(2), callSite: CallSite(), work: .once({}))
    let sooner = queue.insert(deadline: far + .nanoseconds(1), callSite: CallSite(), work: .once({}))
    let sameAsSooner = queue.insert(deadline: far + .nanoseconds(1), callSite: CallSite(), work: .once({}))
    #expect(queue.popEarliest(dueBy: nil)?.id == sooner.id)
    #expect(queue.popEarliest(dueBy: nil)?.id == sameAsSooner.id)
    #expect(queue.popEarliest(dueBy: far + .seconds(1)) == nil)
    #expect(queue.popEarliest(dueBy: nil)?.id == later.id)
  }
}

/// SplitMix64: a seeded generator, so a failing seed fails the same way every time.
struct SplitMix: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}
