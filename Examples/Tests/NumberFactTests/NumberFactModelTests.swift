import Effects
import EffectsTestSupport
import NumberFact
import Testing

/// The number-fact counter, tested exhaustively with a `ModelTester` on virtual time: every change
/// the model shows on its way is stated, in order, with the request it sends, and time moves only
/// when the test says so — no yields, no sleeps, no serial-executor switch.
///
/// A tap on Get Fact is a task the test starts, as a button's action would be. Each fetch shows up
/// as the loading state, made by the tap's task, and the request it sends, asserted as an effect.
@MainActor
@Suite struct NumberFactModelTests {
  /// How long numbersapi.com takes to answer, in virtual time.
  let latency = Duration.seconds(1)

  @Test func incrementingAndDecrementingChangeTheCount() async {
    await withVirtualTime { _ in
      let model = NumberFactModel()
      let tester = ModelTester(model)

      model.incrementButtonTapped()
      await tester.assert { $0.count = 1 }
      model.decrementButtonTapped()
      await tester.assert { $0.count = 0 }
      model.decrementButtonTapped()
      await tester.assert { $0.count = -1 }
      await tester.finish()
    }
  }

  @Test func aFactIsFetchedForEachCountAndAnIncrementClearsIt() async {
    await withVirtualTime { _ in
      let network = Environment.current.stubNetwork
      network.stub(.get("http://numbersapi.com/0"), .ok("0 is the additive identity."), after: latency)
      network.stub(.get("http://numbersapi.com/1"), .ok("1 is the loneliest number."), after: latency)
      let model = NumberFactModel()
      let tester = ModelTester(model)

      Task { await model.getFactButtonTapped() }
      await tester.assert { $0.isLoading = true }
      tester.assertEffects([.send(.get("http://numbersapi.com/0"))])
      await tester.advance(by: latency)
      await tester.assert {
        $0.fact = "0 is the additive identity."
        $0.isLoading = false
      }

      model.incrementButtonTapped()
      await tester.assert {
        $0.count = 1
        $0.fact = nil
      }

      Task { await model.getFactButtonTapped() }
      await tester.assert { $0.isLoading = true }
      tester.assertEffects([.send(.get("http://numbersapi.com/1"))])
      await tester.advance(by: latency)
      await tester.assert {
        $0.fact = "1 is the loneliest number."
        $0.isLoading = false
      }
      await tester.finish()
    }
  }

  @Test func theFactShownClearsOutWhileTheNextOneLoads() async {
    await withVirtualTime { _ in
      let network = Environment.current.stubNetwork
      network.stub(.get("http://numbersapi.com/0"), .ok("0 is the additive identity."), after: latency)
      let model = NumberFactModel()
      let tester = ModelTester(model)
      Task { await model.getFactButtonTapped() }
      await tester.advance(by: latency)
      await tester.skipChanges()  // the first fetch, stated in the tests above
      #expect(model.fact == "0 is the additive identity.")

      Task { await model.getFactButtonTapped() }
      await tester.assert {
        $0.fact = nil  // in the same step as the loading state: the old fact never shows with it
        $0.isLoading = true
      }
      tester.assertEffects([.send(.get("http://numbersapi.com/0"))])
      await tester.advance(by: latency)
      await tester.assert {
        $0.fact = "0 is the additive identity."
        $0.isLoading = false
      }
      await tester.finish()
    }
  }

  @Test func loadingShowsUntilTheAnswerArrivesToTheInstant() async {
    await withVirtualTime { scheduler in
      let network = Environment.current.stubNetwork
      network.stub(.get("http://numbersapi.com/0"), .ok("0 is the additive identity."), after: latency)
      let model = NumberFactModel()
      let tester = ModelTester(model)

      Task { await model.getFactButtonTapped() }
      await tester.assert { $0.isLoading = true }
      tester.assertEffects([.send(.get("http://numbersapi.com/0"))])
      await tester.advance(by: latency - .milliseconds(1))
      await tester.assert()  // still loading: nothing changed
      await tester.advance(by: .milliseconds(1))
      await tester.assert {
        $0.fact = "0 is the additive identity."
        $0.isLoading = false
      }
      #expect(scheduler.elapsed == latency)
      await tester.finish()
    }
  }

  /// Two taps back to back: the second fetch answers first, and the first one's answer, later,
  /// never shows. Run 200 times, with the same steps at the same instants every time.
  @Test func aSecondTapSupersedesTheFetchInFlight() async {
    for _ in 0..<200 {
      await withVirtualTime { scheduler in
        let network = Environment.current.stubNetwork
        // Both taps ask about 0; the stubs answer them in order: the first slowly, the second fast.
        network.stub(.get("http://numbersapi.com/0"), .ok("fact 0"), after: .seconds(2))
        network.stub(.get("http://numbersapi.com/0"), .ok("fact 1"), after: .seconds(1))
        let model = NumberFactModel()
        let tester = ModelTester(model)

        Task { await model.getFactButtonTapped() }
        await tester.assert { $0.isLoading = true }
        tester.assertEffects([.send(.get("http://numbersapi.com/0"))])

        // The second tap changes nothing on screen (no fact, already loading): only a request.
        Task { await model.getFactButtonTapped() }
        await tester.assert()  // settles: the tap's task sends its request
        tester.assertEffects([.send(.get("http://numbersapi.com/0"))])

        await tester.advance(by: .seconds(1))
        await tester.assert {
          $0.fact = "fact 1"
          $0.isLoading = false
        }
        await tester.advance(by: .seconds(1))  // when the first answer was due: it was cancelled
        await tester.assert()
        #expect(scheduler.elapsed == .seconds(2))
        await tester.finish()
      }
    }
  }

  @Test func cancellingStopsTheFetchAndNoFactShows() async {
    await withVirtualTime { _ in
      let network = Environment.current.stubNetwork
      network.stub(.get("http://numbersapi.com/0"), .ok("0 is the additive identity."), after: latency)
      let model = NumberFactModel()
      let tester = ModelTester(model)

      Task { await model.getFactButtonTapped() }
      await tester.assert { $0.isLoading = true }
      tester.assertEffects([.send(.get("http://numbersapi.com/0"))])

      model.cancelButtonTapped()
      await tester.assert { $0.isLoading = false }
      await tester.advance(by: latency)  // the answer was due: it never comes
      await tester.assert()
      #expect(model.fact == nil)
      await tester.finish()
    }
  }
}
