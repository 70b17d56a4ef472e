import Effects
import EffectsTestSupport
import OrderingBugs
import Testing

/// What both forecast models do.
@MainActor protocol PickingCity {
  var city: String? { get }
  var forecast: String? { get }
  @discardableResult func pick(_ city: String) -> Task<Void, Never>
}

extension StaleForecastModel: PickingCity {}
extension ForecastModel: PickingCity {}

/// Shape 7, a `@MainActor` model racing a background actor: the user picks Paris, then London at
/// once. In the default order the service answers in turn, London last; in others Paris's answer
/// arrives last, and the screen says London with Paris's weather.
@MainActor @Suite struct StaleResultTests {
  /// Paris, then London, with `model`: London's forecast shown.
  static func pickingTwoCitiesInARow(_ model: some PickingCity) async {
    let paris = model.pick("Paris")
    let london = model.pick("London")
    await paris.value
    await london.value
    #expect(model.city == "London")
    #expect(model.forecast == "fog", "London's screen shows \(model.forecast ?? "nothing")")
  }

  static let forecasts = ["Paris": "rain", "London": "fog"]

  static func buggy(_: TestScheduler) async {
    await pickingTwoCitiesInARow(StaleForecastModel(service: ForecastService(forecasts: forecasts)))
  }

  static func fixed(_: TestScheduler) async {
    await pickingTwoCitiesInARow(ForecastModel(service: ForecastService(forecasts: forecasts)))
  }

  @Test(.virtualTime) func theBuggyModelPassesInTheDefaultOrder() async {
    await Self.buggy(TestScheduler.current)
  }

  @Test(arguments: strategies)
  func explorationFindsTheStaleForecastAndItsScheduleReplays(_ exploration: Exploration) async throws {
    let schedule = try #require(await failingSchedule(exploring: exploration, Self.buggy))
    #expect(await failures(replaying: schedule, Self.buggy) == 100)
  }

  @Test(.virtualTime(exploring: .pct(runs: 200))) func theFixedModelPassesEveryPCTSchedule() async {
    await Self.fixed(TestScheduler.current)
  }

  @Test(.virtualTime(exploring: .randomWalk(runs: 200))) func theFixedModelPassesEveryRandomWalk() async {
    await Self.fixed(TestScheduler.current)
  }
}
