import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

/// `Environment.bootstrap(_:)` misused for real, in a child process each (it changes the process's
/// root, which the other tests of this process must not see). Before, each of these ended the
/// process with SIGILL, and every other test of the run with it.
///
/// The child runs the body of the exit test, with no `Test.current`; Swift Testing sends every issue
/// recorded there through its back channel to this process, as an issue of the test that ran the
/// exit test. So the refusal, and a read of the live root there, are issues of these tests — before,
/// they were written to the child's standard error, and the tests passed whatever it said.
#if os(macOS) || os(Linux) || os(Windows)
@Suite struct BootstrapExitTests {
  @Test func bootstrappingTwiceIsAnIssueOfTheTestAndKeepsTheFirstRoot() async throws {
    let issues = Locked<[Issue]>([])
    var standardError = ""
    // Code inside `#require(processExitsWith:)` takes the line of the macro: both calls are there.
    let line = #line + 2
    try await withKnownIssue {
      let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
        var first = Environment.live
        first[FeatureFlagsKey.self] = ["first"]
        var second = Environment.live
        second[FeatureFlagsKey.self] = ["second"]
        Environment.bootstrap(first)
        Environment.bootstrap(second)
        guard Environment.current[FeatureFlagsKey.self] == ["first"] else { exit(2) }
      }
      standardError = String(decoding: result.standardErrorContent, as: UTF8.self)
    } matching: { issue in
      issues.withLock { $0.append(issue) }
      return true
    }
    #expect(
      issues.snapshot.map(\.message) == [
        """
        Environment.bootstrap(_:) was called twice: first at EffectsTests/BootstrapExitTests.swift:\(line), again at \
        EffectsTests/BootstrapExitTests.swift:\(line). The second call changed nothing: the first environment stays \
        the root. Bootstrap the process's environment once, at launch; to change it for one scope (a test, a \
        request), use withEnvironment(_:operation:) instead.
        """,
        // The exit test's body is the test's code, and it read the live root.
        """
        Environment.current[FeatureFlagsKey.self] was read in a test, but no environment was set for this test, so \
        it answered its value from the root environment bootstrapped at \
        EffectsTests/BootstrapExitTests.swift:\(line). A test should control what it reads and where its effects \
        go: run it with @Test(.environment(.test())) or inside withEnvironment(.test()) { … }, or set \
        environment[FeatureFlagsKey.self] (or the property that wraps it). To use the real world on purpose (an \
        integration test), say so: withEnvironment(.live) { … } or @Test(.environment(.live)).
        """,
      ]
    )
    // Both at the line of the exit test, the read too: a child process has no running test to name
    // the file, which the name of the macro's expansion buffer gives (it was placed at a line of
    // the library's recordFailure.swift).
    #expect(
      issues.snapshot.map(\.sourceLocation?.fileID)
        == Array(repeating: "EffectsTests/BootstrapExitTests.swift", count: 2)
    )
    #expect(issues.snapshot.map(\.sourceLocation?.line) == [line, line])
    #expect(issues.snapshot.map(\.reportKind) == [.bootstrapRefused, .liveRead])
    #expect(!standardError.contains("swift-effects:"), "the refusal went to the test, not to standard error")
  }

  @Test func bootstrappingAfterTheFirstReadIsAnIssueOfTheTestAndKeepsTheRootAlreadyRead() async throws {
    let issues = Locked<[Issue]>([])
    var standardError = ""
    let line = #line + 2
    try await withKnownIssue {
      let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
        _ = Environment.current  // the first read outside any scope: the root is fixed now
        var late = Environment.live
        late[FeatureFlagsKey.self] = ["late"]
        Environment.bootstrap(late)
        guard Environment.current[FeatureFlagsKey.self] == ["live-only"] else { exit(2) }
      }
      standardError = String(decoding: result.standardErrorContent, as: UTF8.self)
    } matching: { issue in
      issues.withLock { $0.append(issue) }
      return true
    }
    #expect(
      issues.snapshot.map(\.message) == [
        """
        Environment.bootstrap(_:) was called at EffectsTests/BootstrapExitTests.swift:\(line), after \
        Environment.current had already been read outside withEnvironment, so code has already seen the previous \
        root. This call changed nothing: the root stays the one already read. Bootstrap once, at launch, before \
        anything reads Environment.current.
        """,
        // The exit test's body is the test's code, and it read the live root.
        """
        Environment.current[FeatureFlagsKey.self] was read in a test, but no environment was set for this test, so \
        it answered FeatureFlagsKey.liveValue. A test should control what it reads and where its effects go: run it \
        with @Test(.environment(.test())) or inside withEnvironment(.test()) { … }, or set \
        environment[FeatureFlagsKey.self] (or the property that wraps it). To use the real world on purpose (an \
        integration test), say so: withEnvironment(.live) { … } or @Test(.environment(.live)).
        """,
      ]
    )
    #expect(issues.snapshot.first?.sourceLocation?.line == line)
    #expect(!standardError.contains("swift-effects:"))
  }

  @Test func aBootstrapBeforeAnyReadIsTheRootAndOnlyTheReadIsSaid() async throws {
    let issues = Locked<[Issue]>([])
    let line = #line + 2
    try await withKnownIssue {
      try await #require(processExitsWith: .success) {
        var environment = Environment.live
        environment[FeatureFlagsKey.self] = ["at launch"]
        Environment.bootstrap(environment)
        guard Environment.current[FeatureFlagsKey.self] == ["at launch"] else { exit(2) }
      }
    } matching: { issue in
      issues.withLock { $0.append(issue) }
      return true
    }
    // No refusal; the read says it saw the bootstrapped root.
    #expect(
      issues.snapshot.map(\.message) == [
        """
        Environment.current[FeatureFlagsKey.self] was read in a test, but no environment was set for this test, so \
        it answered its value from the root environment bootstrapped at EffectsTests/BootstrapExitTests.swift:\(line). \
        A test should control what it reads and where its effects go: run it with @Test(.environment(.test())) or \
        inside withEnvironment(.test()) { … }, or set environment[FeatureFlagsKey.self] (or the property that wraps \
        it). To use the real world on purpose (an integration test), say so: withEnvironment(.live) { … } or \
        @Test(.environment(.live)).
        """
      ]
    )
  }

  /// Where test support is not in the process (an app, or a host before its test bundle is
  /// loaded), a refusal is one line on standard error.
  @Test func withoutTestSupportARefusalIsOneLineOnStandardError() async throws {
    let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
      let root = RootEnvironment()
      try? root.bootstrap(.live, at: CallSite(fileID: "App/main.swift", filePath: "/App/main.swift", line: 3))
      do throws(BootstrapError) {
        try root.bootstrap(.live, at: CallSite(fileID: "App/Other.swift", filePath: "/App/Other.swift", line: 9))
      } catch {
        error.report(reporter: nil)
      }
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self)
        == """
        swift-effects: Environment.bootstrap(_:) was called twice: first at App/main.swift:3, again at \
        App/Other.swift:9. The second call changed nothing: the first environment stays the root. Bootstrap the \
        process's environment once, at launch; to change it for one scope (a test, a request), use \
        withEnvironment(_:operation:) instead.

        """
    )
  }
}
#endif
