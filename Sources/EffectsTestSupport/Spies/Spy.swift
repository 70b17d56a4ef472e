import Effects

/// A thread-safe recorder for hand-written test doubles: it remembers every input it is called
/// with, answers with a stub, and asserts how it was called.
///
/// A spy replaces the bookkeeping of a hand-written double (an `inputs` array, a `result` to
/// return, a counter) with one property per method:
///
/// ```swift
/// protocol TokenStore: Sendable {
///   func save(_ token: String) throws
///   func load() throws -> String?
/// }
///
/// struct TokenStoreSpy: TokenStore {
///   let saveSpy = Spy<String, Void>("tokenStore.save")
///   let loadSpy = Spy<Void, String?>("tokenStore.load")
///   func save(_ token: String) throws { try saveSpy(token) }
///   func load() throws -> String? { try loadSpy() }
/// }
///
/// @Test func aStoredTokenSkipsTheLoginScreen() throws {
///   let store = TokenStoreSpy()
///   store.loadSpy.stub(returning: "abc")
///
///   let model = try LaunchModel(tokenStore: store)
///
///   #expect(model.screen == .home)
///   store.loadSpy.assertCalls(count: 1)
///   store.saveSpy.assertNoCalls()
/// }
/// ```
///
/// ## Calling a spy
///
/// A spy is called one way, whatever its shape: `try spy(input)`, or `try spy()` when its `Input`
/// is `Void`. The call records the input and answers the stub: its output, or the error it throws —
/// always thrown, also when the output is `Void`.
///
/// A double of a method that does *not* throw cannot pass an error on, so it calls a `Void` spy
/// with ``record(_:fileID:filePath:line:column:)`` instead (``record(fileID:filePath:line:column:)``
/// with no input):
///
/// ```swift
/// struct EventLogSpy: EventLog {
///   let trackSpy = Spy<Event, Void>("events.track")
///   func track(event: String, properties: [String: String]) {
///     trackSpy.record(Event(name: event, properties: properties))
///   }
/// }
/// ```
///
/// Its other name keeps overload resolution from ever choosing it for `try spy(input)`. A stub
/// that throws is a mistake in a test of a method that cannot throw: `record` reports it as a
/// failure at its call.
///
/// ## Stubs
///
/// ``stub(returning:)``, ``stub(throwing:)``, ``stub(_:)`` (a closure of the input) and
/// `stub(script:)` (one output per call, used up exactly). Each
/// replaces the previous stub. A spy with no stub answers `()` when its output is `Void`;
/// otherwise the call is recorded and reported as `Spy "<name>" was called with <input>, but it has
/// no stub`,
/// and `try spy(input)` throws, so the code under test stops instead of going on with an invented
/// value.
///
/// ## Asserting the calls
///
/// ``assertCalls(_:fileID:filePath:line:column:)`` (every call, in order),
/// ``assertCalls(count:fileID:filePath:line:column:)`` and ``assertNoCalls(fileID:filePath:line:column:)``
/// — the words every recorder of this module uses. Each checks every call since the spy was made
/// or last ``clear()``ed, and leaves them recorded.
///
/// ## Logging across collaborators
///
/// Give several spies one ``CallLog`` to assert the order of calls between them. Every assertion
/// of a spy marks the calls it checked as verified in that log.
///
/// A spy is a reference type: copies of a double share it. It is `Sendable` when its input and
/// output are, and can be called from many tasks at once.
public final class Spy<Input, Output> {
  /// The name failure messages and the call log use: `"tokenStore.save"`.
  public let name: String

  let log: CallLog?
  let state = Locked(State())
  /// Whether `Output` is `Void`, so a spy with no stub (or a used-up script) can answer `()`.
  private let outputIsVoid = Output.self == Void.self

  /// Creates a spy with no calls and no stub.
  ///
  /// - Parameters:
  ///   - name: What messages call it; name it after the method it stands in for.
  ///   - log: A log shared with other spies, to assert the order of calls across them.
  public init(_ name: String, log: CallLog? = nil) {
    self.name = name
    self.log = log
  }

  deinit {
    if let leftover = state.withLock({ $0.takeUnreportedScriptLeftover() }) {
      reportIssue("\(subject) was deinitialized with \(leftover.message)", kind: .unusedStub, at: leftover.setAt)
    }
  }

  /// Every input the spy was called with, oldest first.
  public var calls: [Input] {
    state.withLock { $0.calls.elements }
  }

  /// The input of the latest call, or `nil` when the spy was never called.
  package var lastCall: Input? {
    state.withLock { $0.calls.last }
  }

  /// Forgets every call recorded so far; the stub or script stays. Entries the spy wrote to a
  /// shared ``CallLog`` stay in the log (clear the log itself for those).
  ///
  /// ```swift
  /// model.refresh()
  /// fetch.clear()
  /// model.refresh()
  /// fetch.assertCalls(["42"])  // only the second refresh
  /// ```
  public func clear() {
    let removed = state.withLock { state in
      state.logIndices.removeAll()
      return state.calls.removeAll()
    }
    // Dropped once unlocked: an input's `deinit` may call this spy.
    withExtendedLifetime(removed) {}
  }

  /// Records `input` and answers the stub: its output, or the error it throws.
  ///
  /// The one way to call a spy with an input, whatever its output; a double of a throwing method
  /// passes the stubbed error on to the code under test:
  ///
  /// ```swift
  /// func save(_ token: String) throws { try saveSpy(token) }
  /// func fetchUser(id: User.ID) throws -> User { try fetchUserSpy(id) }
  /// ```
  ///
  /// - Throws: the stubbed error, also when the output is `Void`; or, after reporting the problem
  ///   at this call, an error when the spy has no output to give (no stub and a non-`Void` output,
  ///   or a used-up script and a non-`Void` output).
  public func callAsFunction(
    _ input: Input,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) throws -> Output {
    var response: Response?
    switch route(input, response: &response) {
    case .respond:
      return try response!(input)
    case .noStub:
      // `outputIsVoid` means `Output` is `Void`: the cast is the identity. `() as! Output` would be
      // a checked dynamic cast on every call of a Void spy, which the benchmark `spy-record` shows.
      if outputIsVoid { return () as! Output }
      let message = """
        \(subject) was called with \(describe(input)), but it has no stub. Stub it in the test \
        with stub(returning:), stub(throwing:), stub { input in … } or stub(script:).
        """
      reportIssue(message, kind: .unstubbedCall, fileID: fileID, filePath: filePath, line: line, column: column)
      throw SpyError(description: message)
    case .scriptUsedUp(let callNumber, let outputs, let setAt):
      let message = """
        \(subject) was called more often than its script allows: call #\(callNumber) since the script was set \
        (with \(describe(input))) has no output, because the script set at \(setAt) has \
        \(outputs == 1 ? "1 output" : "\(outputs) outputs"). Add an output to the script, or find the extra call.
        """
      reportIssue(message, kind: .unstubbedCall, fileID: fileID, filePath: filePath, line: line, column: column)
      if outputIsVoid { return () as! Output }
      throw SpyError(description: message)
    }
  }

  /// Records the call, and says what to answer.
  private func route(_ input: Input, response: inout Response?) -> SpyRoute {
    guard let log else {
      return state.withLock { Self.record(input, in: &$0, response: &response) }
    }
    let entry = CallLog.Entry(name, Input.self == Void.self ? "" : String(describing: input))
    return state.withLock { state in
      // Logged under the spy's lock, so the log and `calls` agree on the order.
      state.logIndices.append(log.append(entry))
      return Self.record(input, in: &state, response: &response)
    }
  }
}

extension Spy: Sendable where Input: Sendable, Output: Sendable {}

extension Spy where Output == Void {
  /// Records `input`, without `try`: for a double of a method that does not throw.
  ///
  /// ```swift
  /// struct EventLogSpy: EventLog {
  ///   let trackSpy = Spy<Event, Void>("events.track")
  ///   func track(event: String, properties: [String: String]) {
  ///     trackSpy.record(Event(name: event, properties: properties))
  ///   }
  /// }
  /// ```
  ///
  /// The method doubled cannot throw, so neither can this call: when the stub throws, the error
  /// fails the test at this call, naming the spy and the error, and the code under test goes on.
  /// A double of a method that throws calls the spy as `try spy(input)`, which throws it.
  public func record(
    _ input: Input,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    do {
      try self(input, fileID: fileID, filePath: filePath, line: line, column: column)
    } catch {
      reportIssue(
        """
        \(subject) threw \(describe(error)), but it was called with record(…), which cannot throw, so the error \
        cannot reach the caller. Where the spy stands in for a throwing method, call it as `try spy(input)`.
        """,
        kind: .misuse,
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
      )
    }
  }
}

extension Spy where Input == Void {
  /// Records a call with no input and answers the stub: `try spy()`.
  ///
  /// The one way to call a spy with no input, whatever its output:
  ///
  /// ```swift
  /// func load() throws -> String? { try loadSpy() }
  /// func refresh() throws { try refreshSpy() }
  /// ```
  ///
  /// - Throws: see ``callAsFunction(_:fileID:filePath:line:column:)``.
  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) throws -> Output {
    try self((), fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

extension Spy where Input == Void, Output == Void {
  /// Records a call with no input, without `try`: for a double of a method that does not throw.
  ///
  /// ```swift
  /// func refresh() { refreshSpy.record() }
  /// ```
  ///
  /// When the stub throws, the error fails the test at this call (see
  /// ``record(_:fileID:filePath:line:column:)``).
  public func record(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    record((), fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
