public import Effects

/// An `Interpreter` that records effects instead of performing them, for exhaustive tests of
/// code that performs effects itself.
///
/// Hand ``interpreter`` to the code under test, then assert everything it did:
///
/// ```swift
/// final class LoginModel {
///   let interpreter: Interpreter<LoginEffect>
///   init(interpreter: Interpreter<LoginEffect>) { self.interpreter = interpreter }
///   func received(_ response: LoginResponse) throws { try interpreter.perform(login(response: response)) }
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
///   recorder.assertEffects([.showAlert("Wrong password"), .storeToken("abc")])
/// }
/// ```
///
/// Like every recorder of this module, its assertions —
/// ``assertEffects(_:fileID:filePath:line:column:)``, ``assertEffects(count:fileID:filePath:line:column:)``
/// and ``assertNoEffects(fileID:filePath:line:column:)`` — check every effect recorded since the
/// recorder was made (or last ``clear()``ed), and leave them recorded. To check one step at a time,
/// call ``clear()`` after an assertion:
///
/// ```swift
/// try model.received(.wrongPassword)
/// recorder.assertEffects([.showAlert("Wrong password")])
/// recorder.clear()
///
/// try model.received(.success(token: "abc"))
/// recorder.assertEffects([.storeToken("abc")])
/// ```
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

  /// The effects recorded since the recorder was made (or last ``clear()``ed), in order.
  public var effects: [E] {
    recorded.snapshot
  }

  /// Forgets every effect recorded so far: the next assertion checks only what is recorded after
  /// this call.
  ///
  /// ```swift
  /// try model.start()  // set-up whose effects this test is not about
  /// recorder.clear()
  /// ```
  public func clear() {
    let removed = recorded.withLock { recorded in
      defer { recorded = [] }
      return recorded
    }
    // Dropped once unlocked: an effect's `deinit` may use this recorder.
    withExtendedLifetime(removed) {}
  }

  /// Asserts that exactly `count` effects were recorded since the recorder was made (or last
  /// cleared).
  ///
  /// ```swift
  /// recorder.assertEffects(count: 2)
  /// ```
  public func assertEffects(
    count: Int,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard let message = Self.wording.countFailure(count, recorded: { effects.map(describe) }) else { return }
    reportIssue(message, kind: .assertionFailed, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that no effect was recorded since the recorder was made (or last cleared).
  ///
  /// ```swift
  /// try model.received(.cancelled)
  /// recorder.assertNoEffects()
  /// ```
  public func assertNoEffects(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard let message = Self.wording.noneFailure(effects.map(describe)) else { return }
    reportIssue(message, kind: .assertionFailed, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  private static var wording: RecorderWording {
    RecorderWording(
      subject: "RecordingInterpreter",
      did: "recorded",
      haveDone: "recorded",
      amount: { counted($0, "effect") },
      countAssertion: "assertEffects(count:)",
      noun: ("effect", "recorder")
    )
  }
}

extension RecordingInterpreter where E: Equatable {
  /// Asserts that the effects recorded since the recorder was made (or last cleared) are exactly
  /// `expected`, in order.
  ///
  /// The effects stay recorded: a later assertion checks them again, with the effects recorded
  /// since. To check one step at a time, call ``clear()`` after an assertion.
  ///
  /// ```swift
  /// try model.received(.success(token: "abc"))
  /// recorder.assertEffects([.storeToken("abc"), .showAlert("Welcome back")])
  /// ```
  ///
  /// On a mismatch the message is a diff with one line per effect, reported at the line that
  /// called this method:
  ///
  /// ```text
  /// RecordingInterpreter effects differ: got 2, expected 1; first difference at index 1:
  ///     [0] storeToken("abc")
  ///   + [1] showAlert("Welcome back")   (unexpected)
  /// ```
  ///
  /// When the expected effects are the last ones recorded — a test asserting one step at a time
  /// without clearing — the message says so, and how to clear.
  public func assertEffects(
    _ expected: [E],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard let message = Self.wording.listFailure(expected: expected, recorded: effects) else { return }
    reportIssue(message, kind: .assertionFailed, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
