/// Where the ``Effect/print(_:)`` effect prints its lines.
///
/// It is the environment's ``Environment/console``. The live interpreter performs `.print(line)`
/// as `console.print(line)`: the effect and the method that performs it say the same thing. A
/// conforming type prints each line whole and in the order it was given, and is safe to call from
/// any thread. The live console writes to standard output; a test environment has an
/// ``InMemoryConsole`` that keeps the lines:
///
/// ```swift
/// let environment = Environment.test()
/// try Interpreter.live(environment: environment).perform([.print("Computed: 15129")])
/// #expect((environment.console as? InMemoryConsole)?.lines == ["Computed: 15129"])
/// ```
///
/// Inside a conforming type, an unqualified `print` means the requirement, so reach the standard
/// library's function as `Swift.print`. The compiler points there when the arguments are not
/// a single string, and warns when the requirement calls itself:
///
/// ```swift
/// struct PrefixingConsole: Console {
///   func print(_ line: String) {
///     Swift.print("[app] \(line)")
///   }
/// }
/// ```
public protocol Console: Sendable {
  /// Prints `line`, followed by a line break.
  func print(_ line: String)
}
