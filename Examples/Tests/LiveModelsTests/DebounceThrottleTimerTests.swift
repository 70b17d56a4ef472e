import Effects
import EffectsTestSupport
import LiveModels
import Testing

/// `@MainActor` view models on swift-async-algorithms' `debounce`, `throttle` and
/// `AsyncTimerSequence`, driven on virtual time and checked after every step, hundreds of times.
@MainActor @Suite struct DebounceThrottleTimerTests {
  @Test func aSearchRunsOnceTheUserStopsTypingFor300Milliseconds() async {
    var deviations = Deviations()
    for replay in 0..<replays {
      let scheduler = TestScheduler()
      await scheduler.withVirtualTime {
        let clock = Environment.current.continuousClock
        let model = SearchModel(clock: clock) { query in
          try? await clock.sleep(for: .milliseconds(200))  // the server takes 200 ms
          return [query + "ift", query + "im"]
        }
        model.start()
        model.type("s")
        await scheduler.advance(by: .milliseconds(100))
        model.type("sw")
        await scheduler.advance(by: .milliseconds(299))
        deviations.check(model.searches == [], "\(replay) at 399 ms: \(model.searches)")
        await scheduler.advance(by: .milliseconds(1))
        deviations.check(model.searches == ["sw"], "\(replay) at 400 ms: \(model.searches)")
        deviations.check(model.results == [], "\(replay) results at 400 ms: \(model.results)")
        await scheduler.advance(by: .milliseconds(200))
        deviations.check(model.results == ["swift", "swim"], "\(replay) results at 600 ms: \(model.results)")
        model.stop()
        await scheduler.run()
        deviations.check(scheduler.pending.isEmpty, "\(replay) pending: \(scheduler.pending)")
      }
    }
    #expect(deviations.list == [])
  }

  @Test func aScrolledListReportsItsRowAtMostEvery100Milliseconds() async {
    var deviations = Deviations()
    for replay in 0..<replays {
      let scheduler = TestScheduler()
      await scheduler.withVirtualTime {
        let model = ScrollModel(clock: Environment.current.continuousClock)
        model.start()
        // (time in ms, row scrolled to, rows reported after it)
        let steps: [(Int, Int, [Int])] = [
          (0, 1, [1]), (50, 2, [1]), (100, 3, [1, 3]), (130, 4, [1, 3]), (230, 5, [1, 3, 5]),
        ]
        for (time, row, expected) in steps {
          await scheduler.advance(to: .milliseconds(time))
          model.scrolled(to: row)
          await scheduler.advance()
          deviations.check(model.reported == expected, "\(replay) at \(time) ms: \(model.reported)")
        }
        model.stop()
        await scheduler.run()
        deviations.check(scheduler.pending.isEmpty, "\(replay) pending: \(scheduler.pending)")
      }
    }
    #expect(deviations.list == [])
  }

  @Test func aStopwatchCountsEveryWholeSecond() async {
    var deviations = Deviations()
    for replay in 0..<replays {
      let scheduler = TestScheduler()
      await scheduler.withVirtualTime {
        let stopwatch = StopwatchModel(clock: Environment.current.continuousClock)
        stopwatch.start()
        await scheduler.advance(by: .milliseconds(999))
        deviations.check(stopwatch.seconds == 0, "\(replay) at 0.999 s: \(stopwatch.seconds)")
        await scheduler.advance(by: .milliseconds(1))
        deviations.check(stopwatch.seconds == 1, "\(replay) at 1 s: \(stopwatch.seconds)")
        for second in 2...10 {
          await scheduler.advance(by: .seconds(1))
          deviations.check(stopwatch.seconds == second, "\(replay) at \(second) s: \(stopwatch.seconds)")
        }
        stopwatch.stop()
        await scheduler.advance(by: .seconds(5))
        deviations.check(stopwatch.seconds == 10, "\(replay) after stop: \(stopwatch.seconds)")
        deviations.check(scheduler.pending.isEmpty, "\(replay) pending: \(scheduler.pending)")
      }
    }
    #expect(deviations.list == [])
  }
}
