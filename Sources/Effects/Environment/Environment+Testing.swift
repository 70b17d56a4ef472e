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
    /// The live root, read inside a test: every field and key reports, and answers what `root` was
    /// given, else its live value.
    case liveInTest(root: Environment?)
    /// `Environment.preview()`: fields are the doubles of `.deterministic`, and a key answers its
    /// `testValue`, else its `liveValue`; nothing is ever reported (there is no test to fail).
    case preview
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

  /// The values of the keys this environment was not given, read once (from each key's
  /// `testValue`) and shared by every copy of the environment.
  package let testValues = TestValues()

  /// What a live read answered: `live` for `Environment.live`, or `bootstrapped` followed by the
  /// root's origin.
  private func answered(_ live: String, _ bootstrapped: String) -> String {
    origin == "Environment.live" ? live : "\(bootstrapped) from \(origin)"
  }

  /// Where the environment was made, for messages: `" at Module/File.swift:12"`, or nothing.
  private var madeAt: String {
    callSite.map { " at \($0)" } ?? ""
  }

  /// The value of a co-effect the environment was not given, reporting what this context must.
  ///
  /// - Parameter builtIn: the `Environment` property (`"clock"`) and slot of a built-in
  ///   co-effect; nil for an app's key.
  func resolve<Key: CoeffectKey>(_ key: Key.Type, builtIn: Environment.BuiltIn?) -> Key.Value {
    let field = builtIn?.member
    let member = field.map { ".\($0)" } ?? "[\(Key.self).self]"
    let setting = field.map { "environment.\($0)" } ?? "environment[\(Key.self).self] (or the property that wraps it)"
    switch reads {
    case .liveInTest(let root):
      let value = root?.given(key, builtIn: builtIn) ?? Key.liveValue
      let what =
        field == nil
        ? answered("\(Key.self).liveValue", "its value")
        : answered("the live \(type(of: value as Any))", "its \(type(of: value as Any))")
      report(
        """
        Environment.current\(member) was read in a test, but no environment was set for this test, so it \
        answered \(what). \(Self.howToFix(setting))
        """,
        callSite
      )
      return value
    case .unimplemented:
      report(
        """
        Environment\(member) was read, but the environment made by \(origin)\(madeAt) does not provide it. \
        Set \(setting) in the test to the value the code under test should see.
        """,
        callSite
      )
      return testValues.value(of: key).value
    case .preview:
      return testValues.value(of: key).value
    case .deterministic:
      let (value, isDeclared) = testValues.value(of: key)
      if !isDeclared {
        report(
          """
          Environment\(member) answered \(Key.self).liveValue in the test environment made by \(origin)\(madeAt), \
          because \(Key.self) has no testValue. Declare `static let testValue` on \(Key.self), or set \(setting) \
          in the test.
          """,
          callSite
        )
      }
      return value
    }
  }

  /// The second half of a live-read message: how to give the test its own world, or to ask for the
  /// real one on purpose.
  private static func howToFix(_ setting: String) -> String {
    """
    A test should control what it reads and where its effects go: run it with \
    @Test(.environment(.test())) or inside withEnvironment(.test()) { … }, or set \(setting). To use \
    the real world on purpose (an integration test), say so: withEnvironment(.live) { … } or \
    @Test(.environment(.live)).
    """
  }
}

/// The test values of one test environment: each key's `testValue`, read the first time the key
/// is read and kept, so that a double with state (an in-memory store, a mock client) is one
/// instance for the whole test, and a fresh one for the next test.
package final class TestValues: Sendable {
  private struct Entry {
    let box: any AnyObject & Sendable
    let isDeclared: Bool
  }

  private let entries = Locked<[ObjectIdentifier: Entry]>([:])

  package init() {}

  /// The key's test value, and whether the key declares one (else it is the live value).
  func value<Key: CoeffectKey>(of key: Key.Type) -> (value: Key.Value, isDeclared: Bool) {
    let id = ObjectIdentifier(key)
    let entry =
      entries.withLock { $0[id] }
      ?? {
        // Read outside the lock: a test value may itself read the environment.
        let (value, isDeclared) = TestValueProbe.read(key)
        let made = Entry(box: CoeffectBox(value), isDeclared: isDeclared)
        return entries.withLock { entries in
          if let first = entries[id] { return first }
          entries[id] = made
          return made
        }
      }()
    // Only this method stores under `id`, and always a box of `Key.Value`.
    return (unsafeDowncast(entry.box, to: CoeffectBox<Key.Value>.self).value, entry.isDeclared)
  }
}

extension Environment {
  /// An environment for tests that answers, and reports, as `context` says: `Environment.test()`
  /// then sets the fields whose test values belong together (the scheduler is the clock; one file
  /// system reads what effects write).
  package init(testing context: TestContext) {
    self.init(context: context)
  }

  /// The live root as a test sees it: every read reports, through `report`, that nothing set it,
  /// and answers what this environment was given, else the live value.
  package func liveInTest(
    origin: String = "Environment.live",
    report: @escaping @Sendable (_ message: String, _ callSite: CallSite?) -> Void
  ) -> Environment {
    Environment(
      context: TestContext(callSite: nil, origin: origin, reads: .liveInTest(root: self), report: report)
    )
  }
}
