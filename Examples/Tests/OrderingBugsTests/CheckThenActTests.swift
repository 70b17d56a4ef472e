import Effects
import EffectsTestSupport
import OrderingBugs
import Testing

/// What both accounts answer.
protocol Withdrawing: Actor {
  var balance: Int { get }
  func withdraw(_ amount: Int) async throws -> Bool
}

extension OverdraftingAccount: Withdrawing {}
extension Account: Withdrawing {}

/// The bills a standing order pays: it asks how much is due before it withdraws.
actor Bills {
  func amountDue() -> Int { 50 }
}

/// Shape 2, a check-then-act across an `await`: £100 in the account, £80 taken at a cash machine
/// while a standing order looks up its bill (£50) and pays it. In the default order the machine's
/// withdrawal is through before the standing order checks; in others both check £100, and the
/// account ends overdrawn.
@Suite struct CheckThenActTests {
  /// The two withdrawals, from `account` holding £100: one is declined.
  static func cashMachineAndStandingOrder(on account: some Withdrawing) async {
    let network = Environment.current.stubNetwork
    network.stub(.post(withdrawalsURL), .ok())
    let bills = Bills()
    let cashMachine = Task { try await account.withdraw(80) }
    let standingOrder = Task { try await account.withdraw(await bills.amountDue()) }
    let paid = [(try? await cashMachine.value) ?? false, (try? await standingOrder.value) ?? false]
    #expect(paid.filter { $0 }.count == 1, "withdrawals that went through: \(paid)")
    #expect(await account.balance >= 0)
  }

  static func buggy(_: TestScheduler) async {
    await cashMachineAndStandingOrder(on: OverdraftingAccount(balance: 100))
  }

  static func fixed(_: TestScheduler) async {
    await cashMachineAndStandingOrder(on: Account(balance: 100))
  }

  @Test(.virtualTime) func theBuggyAccountPassesInTheDefaultOrder() async {
    await Self.buggy(TestScheduler.current)
  }

  @Test(arguments: strategies)
  func explorationFindsTheOverdraftAndItsScheduleReplays(_ exploration: Exploration) async throws {
    let schedule = try #require(await failingSchedule(exploring: exploration, Self.buggy))
    #expect(await failures(replaying: schedule, Self.buggy) == 100)
  }

  @Test(.virtualTime(exploring: .pct(runs: 200))) func theFixedAccountPassesEveryPCTSchedule() async {
    await Self.fixed(TestScheduler.current)
  }

  @Test(.virtualTime(exploring: .randomWalk(runs: 200))) func theFixedAccountPassesEveryRandomWalk() async {
    await Self.fixed(TestScheduler.current)
  }
}
