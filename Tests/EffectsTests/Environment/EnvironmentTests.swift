import Effects
import EffectsTestHelpers
import Foundation
import Testing

@Suite struct EnvironmentTests {
  @Test func aChangedCopyLeavesTheOriginalAlone() {
    let original = Environment.live
    var copy = original
    copy.clock = FixedClock(Date(timeIntervalSince1970: 0))
    copy.timeZone = TimeZone(identifier: "Asia/Tokyo")!
    copy.greeter = TestGreeter()
    #expect(copy.clock.now == Date(timeIntervalSince1970: 0))
    #expect(original.clock is SystemClock)
    #expect(original.timeZone == TimeZone.autoupdatingCurrent)
    #expect(original.greeter is LiveGreeter)
    #expect(copy.greeter is TestGreeter)
  }

  @Test func everyFieldReadsBackWhatWasAssigned() {
    var environment = Environment.live
    let files = InMemoryFileSystem(["/a": "1"])
    let defaults = InMemoryDefaults(["k": "v"])
    environment.clock = FixedClock(Date(timeIntervalSince1970: 5))
    environment.bundle = EmptyResourceBundle()
    environment.fileReader = files
    environment.defaults = defaults
    environment.scheduler = InlineScheduler()
    environment.calendar = Calendar(identifier: .iso8601)
    environment.locale = Locale(identifier: "fr_FR")
    environment.timeZone = TimeZone(secondsFromGMT: 3600)!
    #expect(environment.clock.now == Date(timeIntervalSince1970: 5))
    #expect(environment.bundle is EmptyResourceBundle)
    #expect((environment.fileReader as? InMemoryFileSystem) === files)
    #expect((environment.defaults as? InMemoryDefaults) === defaults)
    #expect(environment.scheduler is InlineScheduler)
    #expect(environment.calendar.identifier == .iso8601)
    #expect(environment.locale.identifier == "fr_FR")
    #expect(environment.timeZone.secondsFromGMT() == 3600)
  }

  @Test func liveReadsTheRealWorld() {
    let environment = Environment.live
    #expect(environment.clock is SystemClock)
    #expect(environment.bundle as? Bundle === Bundle.main)
    #expect(environment.fileReader is DiskFileSystem)
    #expect((environment.defaults as? UserDefaultsStore)?.suiteName == nil)
    #expect(environment.scheduler is DispatchScheduler)
  }

  @Test func aKeyThatWasNeverSetAnswersItsLiveValueOutsideTests() {
    #expect(Environment.live.greeter is LiveGreeter)
    #expect(Environment.live[FeatureFlagsKey.self] == ["live-only"])
  }

  @Test func aKeySetOnAnEnvironmentAnswersThatValue() {
    var environment = Environment.live
    environment[FeatureFlagsKey.self] = ["beta"]
    environment.greeter = TestGreeter()
    #expect(environment[FeatureFlagsKey.self] == ["beta"])
    #expect(environment.greeter.greet("Blob") == "Test hello, Blob")
  }

  @Test func twoKeysWithTheSameValueTypeAreStoredApart() {
    enum A: CoeffectKey { static let liveValue = 1 }
    enum B: CoeffectKey { static let liveValue = 2 }
    var environment = Environment.live
    environment[A.self] = 10
    #expect(environment[A.self] == 10)
    #expect(environment[B.self] == 2)
  }
}

struct EmptyResourceBundle: ResourceBundle {
  func path(forResource name: String?, ofType ext: String?) -> String? { nil }
}
