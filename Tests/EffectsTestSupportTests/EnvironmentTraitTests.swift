import Effects
import EffectsTestSupport
import Foundation
import Testing

private let launch = Date(timeIntervalSince1970: 1_234_567)

@Suite struct EnvironmentTraitTests {
  @Test(.environment { $0.clock = FixedClock(launch) })
  func aTestSeesTheEnvironmentItsTraitModified() {
    #expect(Environment.current.clock.now == launch)
    #expect(Environment.current.fileReader is DiskFileSystem, "the rest of the environment is unchanged")
  }

  @Test(.environment(.test(now: launch)))
  func aTestSeesTheEnvironmentItsTraitInstalled() {
    #expect(Environment.current.clock.now == launch)
    #expect(Environment.current.fileReader is InMemoryFileSystem)
  }

  @Test(.environment { $0.locale = Locale(identifier: "ja_JP") })
  func theOverrideReachesChildTasks() async {
    let identifier = await Task { Environment.current.locale.identifier }.value
    #expect(identifier == "ja_JP")
  }

  @Test func withoutTheTraitATestSeesTheRoot() {
    #expect(Environment.current.clock is SystemClock)
  }
}

@Suite(.environment { $0.clock = FixedClock(launch) })
struct EnvironmentSuiteTraitTests {
  @Test func everyTestOfTheSuiteSeesIt() {
    #expect(Environment.current.clock.now == launch)
  }

  @Test func asyncTestsToo() async {
    #expect(Environment.current.clock.now == launch)
  }
}
