import Foundation

/// How an environment made by `EffectsTestSupport` reports a co-effect it cannot answer.
///
/// `Effects` never imports a test framework: test support hands in `report`, which routes to
/// Swift Testing or XCTest, and the ``CallSite`` where the test made its environment, so the
/// failure points at the test.
package struct TestContext: Sendable {
  /// Where the test made its environment.
  package var callSite: CallSite
  /// The name of the factory that made it, for messages: `"Environment.test()"`.
  package var origin: String
  /// Records a test failure with `message` at a call site.
  package var report: @Sendable (_ message: String, _ callSite: CallSite) -> Void
  /// Whether every key not set explicitly reports when read (`Environment.unimplemented()`).
  package var keysAreUnimplemented: Bool

  package init(
    callSite: CallSite,
    origin: String,
    keysAreUnimplemented: Bool,
    report: @escaping @Sendable (_ message: String, _ callSite: CallSite) -> Void
  ) {
    self.callSite = callSite
    self.origin = origin
    self.keysAreUnimplemented = keysAreUnimplemented
    self.report = report
  }

  func reportUnimplemented(_ name: String) {
    report(
      """
      Unimplemented co-effect: Environment.\(name) was read, but the environment made by \(origin) \
      at \(callSite) does not provide it. Set environment.\(name) in the test to the value the code \
      under test should see.
      """,
      callSite
    )
  }

  func resolve<Key: CoeffectKey>(_ key: Key.Type) -> Key.Value {
    let (value, isDeclared) = TestValueProbe.read(key)
    if keysAreUnimplemented {
      report(
        """
        Unimplemented co-effect: Environment[\(Key.self).self] was read, but the environment made by \
        \(origin) at \(callSite) does not provide it. Set environment[\(Key.self).self] (or the property \
        that wraps it) in the test.
        """,
        callSite
      )
    } else if !isDeclared {
      report(
        """
        \(Key.self) has no testValue, so Environment[\(Key.self).self] answered its liveValue in the test \
        environment made by \(origin) at \(callSite). Declare `static let testValue` on \(Key.self), or set \
        environment[\(Key.self).self] (or the property that wraps it) in the test.
        """,
        callSite
      )
    }
    return value
  }
}

extension Environment {
  /// An environment for tests: deterministic co-effects, and `context` to report what it cannot
  /// answer. With `unimplemented`, every field reports when read until it is assigned.
  package init(
    testing context: TestContext,
    clock: any WallClock,
    bundle: any ResourceBundle,
    fileReader: any FileReader,
    defaults: any DefaultsStore,
    scheduler: any Scheduling,
    unimplemented: Bool
  ) {
    var calendar = Calendar(identifier: .gregorian)
    let utc = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0)!
    let posix = Locale(identifier: "en_US_POSIX")
    calendar.timeZone = utc
    calendar.locale = posix
    self.init(
      clock: clock,
      bundle: bundle,
      fileReader: fileReader,
      defaults: defaults,
      scheduler: scheduler,
      calendar: calendar,
      locale: posix,
      timeZone: utc
    )
    update([]) { fields in
      fields.testContext = context
      fields.unimplemented = unimplemented ? .all : []
    }
  }

  /// A bundle with no resources, for test environments.
  package static var emptyBundle: any ResourceBundle { EmptyBundle() }
}
