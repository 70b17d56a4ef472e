/// Where the ``Effect/print(_:)`` effect writes its lines.
///
/// It is the environment's ``Environment/console``. A conforming type writes each line whole and
/// in the order it was given, and is safe to call from any thread. ``StandardOutput`` is the live
/// console; a test environment has an ``InMemoryConsole`` that keeps the lines:
///
/// ```swift
/// let environment = Environment.test()
/// try Interpreter.live(environment: environment).perform([.print("Computed: 15129")])
/// #expect((environment.console as? InMemoryConsole)?.lines == ["Computed: 15129"])
/// ```
///
/// The requirement is `write(_:)`, not `print(_:)`, so that a conforming type never shadows
/// `Swift.print` inside its own methods.
public protocol Console: Sendable {
  /// Writes `line`, followed by a line break.
  func write(_ line: String)
}
