import Effects
import EffectsTestHelpers
import Foundation
import Testing

/// `Environment.bootstrap(_:)` misused for real, in a child process each (it changes the process's
/// root, which the other tests of this process must not see). Before, each of these ended the
/// process with SIGILL, and every other test of the run with it. The child runs no test, so the
/// refusal is written to its standard error, which the parent reads.
@Suite struct BootstrapExitTests {
  @Test func bootstrappingTwiceKeepsTheFirstRootAndTheProcessGoesOn() async throws {
    let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
      var first = Environment.live
      first[FeatureFlagsKey.self] = ["first"]
      var second = Environment.live
      second[FeatureFlagsKey.self] = ["second"]
      Environment.bootstrap(first)
      Environment.bootstrap(second)
      guard Environment.current[FeatureFlagsKey.self] == ["first"] else { exit(2) }
    }
    let standardError = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(standardError.contains("swift-effects: Environment.bootstrap(_:) was called twice: first at EffectsTests/"))
    #expect(standardError.contains("The second call changed nothing: the first environment stays the root."))
    #expect(!standardError.contains("(Read at"), "the bootstrap call is the place; no stack is read for it")
  }

  @Test func bootstrappingAfterTheFirstReadKeepsTheRootAlreadyReadAndTheProcessGoesOn() async throws {
    let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
      _ = Environment.current  // the first read outside any scope: the root is fixed now
      var late = Environment.live
      late[FeatureFlagsKey.self] = ["late"]
      Environment.bootstrap(late)
      guard Environment.current[FeatureFlagsKey.self] == ["live-only"] else { exit(2) }
    }
    let standardError = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(standardError.contains("after Environment.current had already been read outside withEnvironment"))
    #expect(standardError.contains("This call changed nothing: the root stays the one already read."))
    #expect(standardError.contains("Environment.current[FeatureFlagsKey.self] was read"))
  }

  @Test func aBootstrapBeforeAnyReadIsTheRootAndNothingIsSaid() async throws {
    let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
      var environment = Environment.live
      environment[FeatureFlagsKey.self] = ["at launch"]
      Environment.bootstrap(environment)
      guard Environment.current[FeatureFlagsKey.self] == ["at launch"] else { exit(2) }
    }
    let standardError = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(!standardError.contains("Environment.bootstrap(_:) was called"))
    // A child process of the test runner still counts as running tests: the read says it saw the root.
    #expect(standardError.contains("Environment.current[FeatureFlagsKey.self] was read in a test"))
  }
}
