public import Effects

/// An `Interpreter` that records effects instead of performing them, for exhaustive tests of
/// code that performs effects itself.
///
/// Hand ``interpreter`` to the code under test, then assert, step by step, everything it did:
///
/// ```swift
/// final class LoginModel {
///   let interpreter: Interpreter<LoginEffect>
///   init(interpreter: Interpreter<LoginEffect>) { self.interpreter = interpreter }
///   func received(_ response: LoginResponse) throws { try interpreter.run(login(response: response)) }
/// }
///
/// @Test func aRetryAfterAWrongPasswordStoresTheToken() throws {
///   let recorder = RecordingInterpreter<LoginEffect>()
///   let model = LoginModel(interpreter: recorder.interpreter)
///
///   try model.received(.wrongPassword)
///   recorder.assertEffects([.showAlert("Wrong password")])
///
///   try model.received(.success(token: "abc"))
///   recorder.assertEffects([.storeToken("abc")])
/// }
/// ```
///
/// ``assertEffects(_:fileID:filePath:line:column:)`` checks the effects recorded since the
/// previous assertion and then starts a new step: every recorded effect is checked exactly once.
/// ``effects`` shows the effects of the current step.
///
/// Recording is thread-safe: the interpreter may be called from any task or thread; effects are
/// kept in the order the calls reached it. Nothing is performed, so an `.after` effect is recorded
/// as one effect and its nested effects never run.
public final class RecordingInterpreter<E: Sendable>: Sendable {
  private let recorded = Locked<[E]>([])

  /// Creates an interpreter that has recorded nothing.
  public init() {}

  /// The interpreter to give the code under test: it records every effect, in order, and never
  /// fails.
  public var interpreter: Interpreter<E> {
    let recorded = self.recorded
    return Interpreter { effect in recorded.withLock { $0.append(effect) } }
  }

  /// The effects recorded since the last ``assertEffects(_:fileID:filePath:line:column:)`` (since
  /// creation before the first), in order.
  public var effects: [E] {
    recorded.snapshot
  }

  /// Forgets the effects recorded since the last assertion, without asserting them.
  ///
  /// ```swift
  /// try model.start()  // set-up whose effects this test is not about
  /// recorder.clear()
  /// ```
  public func clear() {
    recorded.withLock { $0.removeAll() }
  }
}

extension RecordingInterpreter where E: Equatable {
  /// Fails the test unless the effects recorded since the last assertion are exactly `expected`,
  /// in order; then starts a new step.
  ///
  /// The recorded effects are cleared whether the assertion passes or fails, so the next
  /// assertion checks only what happened after this one (and a failure is reported once, not
  /// again at every later step). Assert `[]` to check that nothing happened.
  ///
  /// ```swift
  /// try model.received(.success(token: "abc"))
  /// recorder.assertEffects([.storeToken("abc")])
  /// ```
  ///
  /// On a mismatch the message is a diff with one line per effect, reported at the line that
  /// called this method:
  ///
  /// ```text
  /// recorded effects did not match: expected 1, got 2; first difference at index 1:
  ///     [0] storeToken("abc")
  ///   + [1] showAlert("Welcome back")   (unexpected)
  /// ```
  public func assertEffects(
    _ expected: [E],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let actual = recorded.withLock { effects in
      defer { effects.removeAll() }
      return effects
    }
    guard let message = effectsMismatch(expected: expected, actual: actual, subject: "recorded effects") else { return }
    reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
