/// Performs effects: the one place where described changes reach the world.
///
/// An interpreter is a function from one effect to its performance, plus the rules for a batch:
/// effects run in order, and the first one that throws stops the batch with an
/// ``InterpreterError`` naming it and every effect that was not performed. Nothing is skipped
/// silently.
///
/// ```swift
/// // At the boundary of the app: decide, then perform.
/// let interpreter = Interpreter.live  // acts on Environment.current
/// let square = try interpreter.perform(compute(file: "number.txt"))
/// ```
///
/// ``live`` performs the built-in ``Effect`` on ``Environment/current``, as ``Environment/live``
/// names the real world; ``live(environment:onFailure:)`` on one environment. For an
/// app's own effect enum, write the `switch` yourself, or translate it to ``Effect`` with
/// ``pullback(_:)``:
///
/// ```swift
/// enum LoginEffect: Equatable, Sendable {
///   case showAlert(String)
///   case storeToken(String)
/// }
///
/// let login: Interpreter<LoginEffect> = Interpreter.live.pullback { effect in
///   switch effect {
///   case .showAlert(let message): .print(message)
///   case .storeToken(let token): .setDefault(.string(token), for: "token")
///   }
/// }
/// ```
///
/// In tests, don't perform effects at all: compare them (`assertEffects(of:_:)`), or record them
/// with `RecordingInterpreter` from `EffectsTestSupport`.
public struct Interpreter<E: Sendable>: Sendable {
  @usableFromInline let performOne: @Sendable (E) throws -> Void

  /// Creates an interpreter that performs each effect with `perform`.
  ///
  /// ```swift
  /// let interpreter = Interpreter<LoginEffect> { effect in
  ///   switch effect {
  ///   case .showAlert(let message): alerts.show(message)
  ///   case .storeToken(let token): try keychain.store(token)
  ///   }
  /// }
  /// ```
  ///
  /// - Parameter perform: performs one effect; throwing stops the batch it belongs to.
  public init(_ perform: @escaping @Sendable (E) throws -> Void) {
    self.performOne = perform
  }

  /// Performs `effects` in order, stopping at the first one that fails.
  ///
  /// - Throws: ``InterpreterError`` with the failing effect, its index, the error it threw, and
  ///   the effects after it, which were not performed.
  @inlinable
  public func perform(_ effects: [E]) throws {
    if let failure = Self.firstFailure(in: effects, performing: performOne) {
      throw failure
    }
  }

  /// Performs the outcome's effects, then returns its value.
  ///
  /// ```swift
  /// let square = try interpreter.perform(compute(file: "number.txt"))
  /// ```
  ///
  /// - Throws: ``InterpreterError``, as performing a list of effects does; the value is not
  ///   returned then.
  @inlinable
  public func perform<Value>(_ outcome: Outcome<Value, E>) throws -> Value {
    try perform(outcome.effects)
    return outcome.value
  }

  /// An interpreter for another effect type, which translates each effect to this one's and
  /// performs it here.
  ///
  /// ```swift
  /// let login: Interpreter<LoginEffect> = Interpreter.live.pullback { effect in
  ///   switch effect {
  ///   case .showAlert(let message): .print(message)
  ///   case .storeToken(let token): .setDefault(.string(token), for: "token")
  ///   }
  /// }
  /// ```
  ///
  /// A failure is reported in terms of `Local`: the ``InterpreterError`` names the `Local` effect
  /// that failed and the `Local` effects not performed.
  public func pullback<Local: Sendable>(_ toEffect: @escaping @Sendable (Local) -> E) -> Interpreter<Local> {
    let performOne = self.performOne
    return Interpreter<Local> { try performOne(toEffect($0)) }
  }

  /// Performs `effects` in order and returns the failure that stopped them, if any.
  ///
  /// The success path allocates nothing; the list of effects not performed is built only on
  /// failure.
  @inlinable
  static func firstFailure(in effects: [E], performing perform: (E) throws -> Void) -> InterpreterError<E>? {
    for index in effects.indices {
      do {
        try perform(effects[index])
      } catch {
        return InterpreterError(
          index: index,
          effect: effects[index],
          underlying: error,
          notPerformed: Array(effects[(index + 1)...])
        )
      }
    }
    return nil
  }
}
