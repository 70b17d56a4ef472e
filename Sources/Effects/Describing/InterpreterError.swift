public import Foundation

/// The failure of one effect in a batch, and what it left undone.
///
/// ``Interpreter/perform(_:)-([E])`` throws it when an effect fails: the effects before ``index`` were
/// performed, ``effect`` failed with ``underlying``, and ``notPerformed`` lists, in order, every
/// effect after it, none of which ran.
///
/// ```swift
/// do {
///   try interpreter.perform(outcome.effects)
/// } catch let error as InterpreterError<Effect> {
///   logger.error("\(error)")
///   retryLater(error.notPerformed)
/// }
/// ```
///
/// Its description reads:
///
/// ```text
/// effect at index 2 of 4 failed: writeFile(path: "/drafts/today.txt", contents: "draft")
///   error: Could not write /drafts/today.txt: a component of the path is a file; expected a directory.
///   not performed (1): print("Draft saved")
/// ```
///
/// The error is in plain words on every platform: an error bridged from `NSError` is described by
/// its localized description (with the path and the system's reason), never by a raw `NSError`
/// dump.
public struct InterpreterError<E: Sendable>: Error {
  /// The position of the failing effect in the batch; every effect before it was performed.
  public let index: Int

  /// The effect that failed.
  public let effect: E

  /// The error the effect failed with.
  public let underlying: any Error

  /// The effects after the failing one, in order: none of them was performed.
  public let notPerformed: [E]

  /// Creates the failure of `effect`, at `index` of its batch, with the effects left undone.
  @usableFromInline
  package init(index: Int, effect: E, underlying: any Error, notPerformed: [E]) {
    self.index = index
    self.effect = effect
    self.underlying = underlying
    self.notPerformed = notPerformed
  }
}

extension InterpreterError: CustomStringConvertible {
  /// Which effect failed and why, and what was not performed, one item per line.
  public var description: String {
    let count = index + 1 + notPerformed.count
    let rest =
      notPerformed.isEmpty
      ? ": none (it was the last)"
      : " (\(notPerformed.count)): " + notPerformed.map { String(describing: $0) }.joined(separator: ", ")
    return """
      effect at index \(index) of \(count) failed: \(effect)
        error: \(plainWords(underlying))
        not performed\(rest)
      """
  }
}

extension InterpreterError: LocalizedError {
  /// The same text as ``description``.
  public var errorDescription: String? {
    description
  }
}
