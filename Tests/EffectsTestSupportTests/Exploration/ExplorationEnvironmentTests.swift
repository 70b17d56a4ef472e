import Effects
import EffectsTestSupport
import Foundation
import Testing

/// Each explored run makes the test's world afresh: what a run writes to the environment's doubles
/// is not there in the next, whichever order the traits are listed in, and the suite's trait too.
@Suite(.environment { $0.uuid = IncrementingUUIDs() })
struct ExplorationEnvironmentTests {
  /// Writes a key and answers whether it was there before: a run that sees an earlier run's write.
  static func sawAnEarlierRun() -> Bool {
    let defaults = Environment.current.defaults
    let seen = defaults.value(for: "written") != nil
    defaults.set(.bool(true), for: "written")
    return seen
  }

  @Test(.environment { $0.defaults = InMemoryDefaults() }, .virtualTime(exploring: .randomWalk(runs: 5)))
  func anEnvironmentTraitListedFirstIsMadeAgainForEachRun() async {
    #expect(!Self.sawAnEarlierRun())
    #expect(Environment.current.uuid() == UUID(0))
  }

  @Test(.virtualTime(exploring: .randomWalk(runs: 5)), .environment { $0.defaults = InMemoryDefaults() })
  func anEnvironmentTraitListedLastIsMadeAgainForEachRun() async {
    #expect(!Self.sawAnEarlierRun())
    #expect(Environment.current.uuid() == UUID(0))
  }

  @Test(.virtualTime(exploring: .pct(runs: 5)))
  func theSuitesEnvironmentIsMadeAgainForEachRun() async {
    #expect(!Self.sawAnEarlierRun())
    #expect(Environment.current.uuid() == UUID(0))
  }
}
