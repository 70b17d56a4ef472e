import Effects
import EffectsTestSupport
import Foundation
import LiveModels
import Testing

/// A `@MainActor` view model that debounces on `environment.continuousClock`, built from the test's
/// environment with no clock passed in: `@Test(.virtualTime)` puts it on virtual time, exact to
/// the millisecond, replayed hundreds of times with every step checked.
@MainActor @Suite struct ContinuousClockSearchTests {
  @Test(.virtualTime) func aSearchRunsExactlyWhenTheUserHasStoppedTypingFor300Milliseconds() async {
    let scheduler = TestScheduler.current
    var deviations = Deviations()
    for replay in 0..<replays {
      let model = CatalogSearchModel { query in
        try? await Environment.current.continuousClock.sleep(for: .milliseconds(200))  // the server
        return [query + "ift", query + "im"]
      }
      model.start()
      model.type("s")
      await scheduler.advance(by: .milliseconds(100))
      model.type("sw")  // within the window: the window starts again
      await scheduler.advance(by: .milliseconds(299))
      deviations.check(model.searches == [], "\(replay) one tick before the window: \(model.searches)")
      await scheduler.advance(by: .milliseconds(1))
      deviations.check(model.searches == ["sw"], "\(replay) at the window: \(model.searches)")
      await scheduler.advance(by: .milliseconds(199))
      deviations.check(model.results == [], "\(replay) one tick before the answer: \(model.results)")
      await scheduler.advance(by: .milliseconds(1))
      deviations.check(model.results.map(\.title) == ["swift", "swim"], "\(replay) results: \(model.results)")
      model.stop()
      await scheduler.run()
      deviations.check(scheduler.pending.isEmpty, "\(replay) pending: \(scheduler.pending)")
    }
    #expect(deviations.list == [])
  }

  @Test(.virtualTime) func typingOnlyWithinTheWindowSearchesNothing() async {
    let scheduler = TestScheduler.current
    var deviations = Deviations()
    for replay in 0..<replays {
      let model = CatalogSearchModel { [$0] }
      model.start()
      for query in ["s", "sw", "swi", "swif"] {
        model.type(query)
        await scheduler.advance(by: .milliseconds(299))
        deviations.check(model.searches == [], "\(replay) after \(query): \(model.searches)")
      }
      await scheduler.advance(by: .milliseconds(1))
      deviations.check(model.searches == ["swif"], "\(replay) at the window: \(model.searches)")
      model.stop()
      await scheduler.run()
    }
    #expect(deviations.list == [])
  }

  /// The README's test, as written there.
  @Test(.virtualTime) func searchesOnceTheUserStopsTyping() async {
    let model = CatalogSearchModel { [$0 + "ift"] }  // debounces on Environment.current.continuousClock
    model.start()
    model.type("sw")
    await TestScheduler.current.advance(by: .milliseconds(299))
    #expect(model.searches == [])
    await TestScheduler.current.advance(by: .milliseconds(1))
    #expect(model.results == [.init(id: UUID(0), title: "swift")])
    model.stop()
  }

  @Test(.virtualTime) func resultsGetTheTestsIdentifiersInOrder() async {
    let model = CatalogSearchModel { [$0 + "ift", $0 + "im"] }
    model.start()
    model.type("sw")
    await TestScheduler.current.advance(by: .milliseconds(300))
    #expect(
      model.results == [
        .init(id: UUID(0), title: "swift"),
        .init(id: UUID(1), title: "swim"),
      ]
    )
    model.stop()
    await TestScheduler.current.run()
  }
}
