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
///   func save(_ token: String) throws { try saveSpy.call(token) }
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
///   store.loadSpy.assertCalled(times: 1)
///   store.saveSpy.assertNotCalled()
/// }
/// ```
///
/// ## Calling a spy
///
/// - `try spy(input)` records `input` and answers the stub: its output, or the error it throws.
/// - A spy whose `Output` is `Void` is also callable *without* `try`: `spy(input)`. Swift picks
///   this non-throwing form for every `Void` spy (it is the more specific overload), so use it in
///   doubles of methods that do not throw. In a double of a method that *does* throw, call the
///   spy as `try spy.call(input)`: `try spy(input)` on a `Void` spy still picks the non-throwing
///   form (the compiler warns that nothing throws), and a stubbed error could not reach the caller.
///   If a `Void` spy whose stub throws is called through the non-throwing form, it reports that.
/// - A spy whose `Input` is `Void` can be called with no argument: `try spy()`.
///
/// ## Stubs
///
/// ``stub(returning:)``, ``stub(throwing:)``, ``stub(_:)`` (a closure of the input) and
/// `stub(script:)` (one output per call, used up exactly). Each
/// replaces the previous stub. A spy with no stub answers `()` when its output is `Void`;
/// otherwise the call is recorded and reported as `unimplemented: <name> was called with <input>`,
/// and `try spy(input)` throws, so the code under test stops instead of going on with an invented
/// value.
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
      reportIssue("\(name) was deinitialized with \(leftover.message)", at: leftover.setAt)
    }
  }

  /// Every input the spy was called with, oldest first.
  public var calls: [Input] {
    state.withLock { $0.calls.elements }
  }

  /// How many times the spy was called.
  public var callCount: Int {
    state.withLock { $0.calls.count }
  }

  /// The input of the latest call, or `nil` when the spy was never called.
  public var lastCall: Input? {
    state.withLock { $0.calls.last }
  }

  /// Records `input` and answers the stub: its output, or the error it throws.
  ///
  /// The named form of `try spy(input)`; for a `Void` spy standing in for a throwing method,
  /// this is the form that lets a stubbed error reach the caller:
  ///
  /// ```swift
  /// func save(_ token: String) throws { try saveSpy.call(token) }
  /// ```
  ///
  /// - Throws: the stubbed error; or, after reporting the problem at this call, an error when the
  ///   spy has no output to give (no stub and a non-`Void` output, or a used-up script).
  public func call(
    _ input: Input,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) throws -> Output {
    var response: Response?
    switch record(input, response: &response) {
    case .respond:
      return try response!(input)
    case .noStub:
      if outputIsVoid { return unsafeBitCast((), to: Output.self) }
      let message = """
        unimplemented: \(name) was called with \(describe(input)), but it has no stub. Stub it in the test \
        with stub(returning:), stub(throwing:), stub { input in … } or stub(script:).
        """
      reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
      throw SpyError(description: message)
    case .scriptUsedUp(let callNumber, let outputs, let setAt):
      let message = """
        \(name) was called more often than its script allows: call #\(callNumber) since the script was set \
        (with \(describe(input))) has no output, because the script set at \(setAt) has \
        \(outputs == 1 ? "1 output" : "\(outputs) outputs"). Add an output to the script, or find the extra call.
        """
      reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
      if outputIsVoid { return unsafeBitCast((), to: Output.self) }
      throw SpyError(description: message)
    }
  }

  /// Records `input` and answers the stub: `try spy(input)`.
  ///
  /// ```swift
  /// func load() throws -> String? { try loadSpy(()) }
  /// ```
  ///
  /// - Throws: see ``call(_:fileID:filePath:line:column:)``.
  public func callAsFunction(
    _ input: Input,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) throws -> Output {
    try call(input, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Records the call, and says what to answer.
  private func record(_ input: Input, response: inout Response?) -> SpyRoute {
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
  /// Records `input`, without `try`: the form Swift picks for every `Void` spy.
  ///
  /// ```swift
  /// struct EventLoggingSpy: EventLogging {
  ///   let logSpy = Spy<Event, Void>("events.log")
  ///   func log(name: String, properties: [String: String]) {
  ///     logSpy(Event(name: name, properties: properties))
  ///   }
  /// }
  /// ```
  ///
  /// This form cannot throw. When the stub throws, the error is reported at this call instead;
  /// a spy standing in for a throwing method should be called as `try spy.call(input)`.
  public func callAsFunction(
    _ input: Input,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    do {
      try call(input, fileID: fileID, filePath: filePath, line: line, column: column)
    } catch {
      reportIssue(
        """
        \(name) threw \(describe(error)), but it was called as \(name)(…) without `try`, so the error cannot \
        reach the caller. Where the spy stands in for a throwing method, call it as `try spy.call(input)`.
        """,
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
  /// ```swift
  /// func load() throws -> String? { try loadSpy() }
  /// ```
  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) throws -> Output {
    try call((), fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

extension Spy where Input == Void, Output == Void {
  /// Records a call with no input, without `try`: `spy()`.
  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self((), fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
