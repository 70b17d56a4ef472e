import Effects
import Foundation
import Testing

@Suite struct ClockTests {
  @Test func aFixedClockAnswersItsInstantUntilMoved() {
    var clock = FixedClock(Date(timeIntervalSince1970: 10))
    #expect(clock.now == Date(timeIntervalSince1970: 10))
    clock.now += 5
    #expect(clock.now == Date(timeIntervalSince1970: 15))
  }

  @Test func theSystemClockAnswersTheCurrentTime() {
    let before = Date()
    let now = SystemClock().now
    #expect(now >= before)
    #expect(now <= Date())
  }

  @Test func bundleIsAResourceBundleThatAnswersNilForUnknownResources() {
    let bundle: any ResourceBundle = Bundle.main
    #expect(bundle.path(forResource: "no-such-resource-\(UUID())", ofType: "txt") == nil)
  }
}
