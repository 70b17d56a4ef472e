import Foundation

/// How an environment made for a test reports a co-effect it should not answer.
///
/// `Effects` never imports a test framework: test support hands in `report`, which routes to
/// Swift Testing or XCTest at the line that read the co-effect (or, failing that, at ``callSite``).
package struct TestContext: Sendable {
  /// What a read of an unset field or key means in this environment.
  package enum Reads: Sendable {
    /// `Environment.test()`: fields are deterministic doubles; a key without a `testValue` reports.
    case deterministic
    /// `Environment.unimplemented()`: every field and key reports until the test sets it.
    case unimplemented
    /// The live root, read inside a test: every field and key answers its live value and reports.
    case liveInTest
  }

  /// Where the test made its environment; nil for the live root.
  package var callSite: CallSite?
  /// The name of the factory that made it, for messages: `"Environment.test()"`.
  package var origin: String
  /// What a read of an unset field or key means.
  package var reads: Reads
  /// Records a test failure with `message`, at the line that read the co-effect when it can be
  /// found, else at the call site given.
  package var report: @Sendable (_ message: String, _ callSite: CallSite?) -> Void

  package init(
    callSite: CallSite?,
    origin: String,
    reads: Reads,
    report: @escaping @Sendable (_ message: String, _ callSite: CallSite?) -> Void
  ) {
    self.callSite = callSite
    self.origin = origin
    self.reads = reads
    self.report = report
  }

  /// What a live read answered: `live` for `Environment.live`, or `bootstrapped` followed by the
  /// root's origin.
  private func answered(_ live: String, _ bootstrapped: String) -> String {
    origin == "Environment.live" ? live : "\(bootstrapped) from \(origin)"
  }

  /// Where the environment was made, for messages: `" at Module/File.swift:12"`, or nothing.
  private var madeAt: String {
    callSite.map { " at \($0)" } ?? ""
  }

  func reportRead(of name: String, answering value: Any) {
    switch reads {
    case .liveInTest:
      report(
        """
        Live co-effect in a test: Environment.current.\(name) was read, but no environment was set for \
        this test, so it answered \(answered("the live \(type(of: value))", "its \(type(of: value))")). \
        \(Self.howToFix("environment.\(name)"))
        """,
        callSite
      )
    case .deterministic, .unimplemented:
      report(
        """
        Unimplemented co-effect: Environment.\(name) was read, but the environment made by \(origin)\(madeAt) \
        does not provide it. Set environment.\(name) in the test to the value the code under test should see.
        """,
        callSite
      )
    }
  }

  func resolve<Key: CoeffectKey>(_ key: Key.Type) -> Key.Value {
    switch reads {
    case .liveInTest:
      report(
        """
        Live co-effect in a test: Environment.current[\(Key.self).self] was read, but no environment was set \
        for this test, so it answered \(answered("\(Key.self).liveValue", "its value")). \
        \(Self.howToFix("environment[\(Key.self).self]"))
        """,
        callSite
      )
      return Key.liveValue
    case .unimplemented:
      report(
        """
        Unimplemented co-effect: Environment[\(Key.self).self] was read, but the environment made by \
        \(origin)\(madeAt) does not provide it. Set environment[\(Key.self).self] (or the property that wraps it) \
        in the test.
        """,
        callSite
      )
      return TestValueProbe.read(key).value
    case .deterministic:
      let (value, isDeclared) = TestValueProbe.read(key)
      if !isDeclared {
        report(
          """
          \(Key.self) has no testValue, so Environment[\(Key.self).self] answered its liveValue in the test \
          environment made by \(origin)\(madeAt). Declare `static let testValue` on \(Key.self), or set \
          environment[\(Key.self).self] (or the property that wraps it) in the test.
          """,
          callSite
        )
      }
      return value
    }
  }

  /// The second half of a live-read message: how to give the test its own world, or to ask for the
  /// real one on purpose.
  private static func howToFix(_ member: String) -> String {
    """
    A test should control what it reads and where its effects go: run it with \
    @Test(.environment(.test())) or inside withEnvironment(.test()) { … }, or set \(member). To use \
    the real world on purpose (an integration test), say so: withEnvironment(.live) { … } or \
    @Test(.environment(.live)).
    """
  }
}

extension Environment {
  /// An environment for tests: deterministic co-effects, in-memory targets, and `context` to
  /// report what it cannot answer. With `.unimplemented` reads, every field reports when read until
  /// it is assigned.
  package init(
    testing context: TestContext,
    clock: any WallClock,
    bundle: any ResourceBundle,
    files: InMemoryFileSystem,
    defaults: any DefaultsStore,
    scheduler: any Scheduling
  ) {
    var calendar = Calendar(identifier: .gregorian)
    let utc = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0)!
    let posix = Locale(identifier: "en_US_POSIX")
    calendar.timeZone = utc
    calendar.locale = posix
    self.init(
      clock: clock,
      bundle: bundle,
      fileReader: files,
      fileWriter: files,
      defaults: defaults,
      scheduler: scheduler,
      console: InMemoryConsole(),
      events: InMemoryEventLog(),
      calendar: calendar,
      locale: posix,
      timeZone: utc
    )
    update([]) { fields in
      fields.testContext = context
      fields.unimplemented = context.reads == .unimplemented ? .all : []
    }
  }

  /// The live root as a test sees it: every field answers its live value and reports, through
  /// `report`, that nothing set it.
  package func liveInTest(
    origin: String = "Environment.live",
    report: @escaping @Sendable (_ message: String, _ callSite: CallSite?) -> Void
  ) -> Environment {
    var copy = self
    copy.update([]) { fields in
      fields.testContext = TestContext(callSite: nil, origin: origin, reads: .liveInTest, report: report)
      fields.unimplemented = .all
    }
    return copy
  }

  /// A bundle with no resources, for test environments.
  package static var emptyBundle: any ResourceBundle { EmptyBundle() }
}
