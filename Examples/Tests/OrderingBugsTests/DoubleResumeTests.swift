import Effects
import EffectsTestSupport
import OrderingBugs
import Testing

/// What both checkouts do.
protocol Paying: Sendable {
  var resumes: Int { get }
  func pay(_ amount: Int) async -> Payment
}

extension DoubleResumingCheckout: Paying {}
extension Checkout: Paying {}

/// Shape 5, a double resume: a card terminal that answers in 30 s, behind a checkout that gives up
/// after 30 s. In the default order the answer comes first and cancels the timeout; in others the
/// timeout fires first, tells the customer "timed out", and the terminal, never stopped, charges
/// the card and resumes the payment's continuation a second time.
@Suite struct DoubleResumeTests {
  /// A £10 payment through `checkout`, on `terminal`, answered just as it times out: one resume, and
  /// the customer told the truth.
  static func aPaymentAnsweredAsItTimesOut(
    _ checkout: some Paying,
    on terminal: PaymentTerminal,
    scheduler: TestScheduler
  ) async {
    let paying = Task { await checkout.pay(10) }
    await scheduler.advance(by: .seconds(30))
    let payment = await paying.value
    #expect(checkout.resumes == 1, "the payment's continuation was resumed \(checkout.resumes) times")
    #expect(
      (payment == .timedOut) == terminal.charges.isEmpty,
      "the customer was told \(payment), and the terminal charged \(terminal.charges)"
    )
  }

  static func buggy(_ scheduler: TestScheduler) async {
    let terminal = PaymentTerminal(latency: .seconds(30))
    let checkout = DoubleResumingCheckout(terminal: terminal, timeout: .seconds(30))
    await aPaymentAnsweredAsItTimesOut(checkout, on: terminal, scheduler: scheduler)
  }

  static func fixed(_ scheduler: TestScheduler) async {
    let terminal = PaymentTerminal(latency: .seconds(30))
    let checkout = Checkout(terminal: terminal, timeout: .seconds(30))
    await aPaymentAnsweredAsItTimesOut(checkout, on: terminal, scheduler: scheduler)
  }

  @Test(.virtualTime) func theBuggyCheckoutPassesInTheDefaultOrder() async {
    await Self.buggy(TestScheduler.current)
  }

  @Test(arguments: strategies)
  func explorationFindsTheSecondResumeAndItsScheduleReplays(_ exploration: Exploration) async throws {
    let schedule = try #require(await failingSchedule(exploring: exploration, Self.buggy))
    #expect(await failures(replaying: schedule, Self.buggy) == 100)
  }

  @Test(.virtualTime(exploring: .pct(runs: 200))) func theFixedCheckoutPassesEveryPCTSchedule() async {
    await Self.fixed(TestScheduler.current)
  }

  @Test(.virtualTime(exploring: .randomWalk(runs: 200))) func theFixedCheckoutPassesEveryRandomWalk() async {
    await Self.fixed(TestScheduler.current)
  }
}
