import Effects
import EffectsTestSupport
import Testing

/// `EffectRunner`: each effect in a task of its own, a new one cancelling the one in flight with
/// the same identity, and what a cancelled effect sends dropped — on virtual time, exactly.
@MainActor
@Suite struct EffectRunnerTests {
  /// Waits `delay` of the scope's virtual time — ignoring cancellation when told to, so that a
  /// cancelled effect still answers — then sends its name.
  struct Wait: Sendable {
    var name: String
    var delay = Duration.seconds(1)
    var group = ""
    var ignoresCancellation = false
  }

  func runner() -> EffectRunner<Wait, String> {
    EffectRunner(cancelInFlight: { $0.group.isEmpty ? nil : $0.group }) { wait, send in
      do {
        try await TestScheduler.current.sleep(for: wait.delay)
      } catch {
        guard wait.ignoresCancellation else { return }
      }
      send(wait.name)
    }
  }

  @Test(.virtualTime) func effectsRunSideBySideAndSendWhatTheyProduceOnTheMainActor() async {
    let sent = TestObserver<String, Never>()
    let effects = runner()
    effects.start([Wait(name: "a", delay: .seconds(2)), Wait(name: "b")], send: sent.send)
    await TestScheduler.current.advance()
    #expect(effects.runningCount == 2)

    await TestScheduler.current.advance(by: .seconds(1))
    sent.assertValues(["b"])
    await TestScheduler.current.advance(by: .seconds(1))
    sent.assertValues(["b", "a"])
    #expect(effects.runningCount == 0)
  }

  @Test func aNewEffectWithTheSameIdentityCancelsTheOneInFlight() async {
    for _ in 0..<300 {
      await withVirtualTime { scheduler in
        let sent = TestObserver<String, Never>()
        let effects = runner()
        effects.start([Wait(name: "first", group: "search"), Wait(name: "other")], send: sent.send)
        await scheduler.advance(by: .milliseconds(500))
        effects.start([Wait(name: "second", group: "search")], send: sent.send)
        await scheduler.advance(by: .seconds(1))
        sent.assertValues(["other", "second"])
        #expect(effects.runningCount == 0)
        scheduler.assertNoPendingWork()
      }
    }
  }

  @Test(.virtualTime) func whatACancelledEffectSendsAnywayIsDropped() async {
    let sent = TestObserver<String, Never>()
    let effects = runner()
    effects.start([Wait(name: "stale", group: "search", ignoresCancellation: true)], send: sent.send)
    await TestScheduler.current.advance()
    effects.start([Wait(name: "fresh", group: "search", ignoresCancellation: true)], send: sent.send)
    await TestScheduler.current.advance()  // "stale" woke from its cancelled sleep and sent: dropped
    sent.assertNoValues()
    await TestScheduler.current.advance(by: .seconds(1))
    sent.assertValues(["fresh"])
  }

  @Test(.virtualTime) func cancelAllCancelsEveryEffectAndDropsWhatTheySend() async {
    let sent = TestObserver<String, Never>()
    let effects = runner()
    effects.start(
      [Wait(name: "a", group: "a"), Wait(name: "b"), Wait(name: "c", ignoresCancellation: true)],
      send: sent.send
    )
    await TestScheduler.current.advance()
    effects.cancelAll()
    await TestScheduler.current.advance()
    sent.assertNoValues()
    #expect(effects.runningCount == 0)
    TestScheduler.current.assertNoPendingWork()
  }

  @Test(.virtualTime) func aRunnerReleasedWithEffectsRunningCancelsThem() async {
    let sent = TestObserver<String, Never>()
    var effects: EffectRunner<Wait, String>? = runner()
    effects?.start([Wait(name: "a", ignoresCancellation: true)], send: sent.send)
    await TestScheduler.current.advance()
    effects = nil
    await TestScheduler.current.advance()
    sent.assertNoValues()  // it woke at once, cancelled, and answered: dropped
    TestScheduler.current.assertNoPendingWork()
  }
}
