import Effects
import EffectsTestSupport
import LiveModels
import Testing

/// The search screen, tested through the timeline of what its view receives: every list, at the
/// exact virtual instant it arrives, and the end.
@MainActor @Suite(.virtualTime) struct SearchResultsModelTests {
  let scheduler = TestScheduler.current
  let network = Environment.current.stubNetwork

  /// Stubs the pages of the results for `query`, each answered 200 ms after it is asked for,
  /// and an empty page after them.
  func stubPages(_ pages: [String], for query: String) {
    for (index, page) in (pages + ["[]"]).enumerated() {
      network.stub(SearchResultsModel.request(for: query, page: index + 1), .json(page), after: .milliseconds(200))
    }
  }

  /// Typing, a pause of 300 ms, then three pages of 200 ms each: the first list shows at once, the
  /// second is skipped (it came 200 ms after the first), the third shows.
  @Test func theListGrowsAsPagesArriveAtMostEvery250Milliseconds() async {
    stubPages([#"["pizza", "pizzeria"]"#, #"["pizza bianca"]"#, #"["pizza rossa"]"#], for: "piz")
    let model = SearchResultsModel()
    let results = TestObserver(observing: model.results)
    model.start()

    model.type("p")
    await scheduler.advance(by: .milliseconds(100))
    model.type("pi")
    await scheduler.advance(by: .milliseconds(100))
    model.type("piz")  // searched at 500 ms; pages at 700, 900 and 1,100 ms; the empty one at 1,300
    await scheduler.advance(by: .seconds(2))
    model.stop()
    await scheduler.advance()

    results.assertTimeline([
      .value(["pizza", "pizzeria"], at: .milliseconds(700)),
      .value(["pizza", "pizzeria", "pizza bianca", "pizza rossa"], at: .milliseconds(1_100)),
      .finished(at: .milliseconds(2_200)),
    ])
  }

  /// A list held back by the throttle still reaches the view when the search ends.
  @Test func theLastListShowsWhenTheSearchEnds() async {
    stubPages([#"["pizza", "pizzeria"]"#, #"["pizza bianca"]"#], for: "piz")
    let model = SearchResultsModel()
    let results = TestObserver(observing: model.results)
    model.start()

    model.type("piz")  // searched at 300 ms; pages at 500 and 700 ms; the empty one at 900 ms
    await scheduler.advance(by: .seconds(1))

    results.assertTimeline([
      .value(["pizza", "pizzeria"], at: .milliseconds(500)),
      .value(["pizza", "pizzeria", "pizza bianca"], at: .milliseconds(900)),
    ])
    model.stop()
    await scheduler.advance()
    results.assertTimeline([
      .value(["pizza", "pizzeria"], at: .milliseconds(500)),
      .value(["pizza", "pizzeria", "pizza bianca"], at: .milliseconds(900)),
      .finished(at: .seconds(1)),
    ])
  }

  /// A search that fails shows nothing, and the screen goes on.
  @Test func aFailedSearchShowsNothing() async {
    network.stub(SearchResultsModel.request(for: "piz", page: 1), .status(503), after: .milliseconds(200))
    let model = SearchResultsModel()
    let results = TestObserver(observing: model.results)
    model.start()
    model.type("piz")
    await scheduler.advance(by: .seconds(1))
    model.stop()
    await scheduler.advance()
    results.assertTimeline([.finished(at: .seconds(1))])
  }
}
