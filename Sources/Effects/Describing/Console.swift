/// Where the ``Effect/print(_:)`` effect writes its lines.
///
/// A conforming type writes each line whole and in the order it was given, and is safe to call
/// from any thread. ``StandardOutput`` is the live console; a test passes one that keeps the lines:
///
/// ```swift
/// final class RecordedLines: Console, @unchecked Sendable {
///   private let lock = NSLock()
///   private var stored: [String] = []  // guarded by `lock`
///   var lines: [String] { lock.withLock { stored } }
///   func write(_ line: String) { lock.withLock { stored.append(line) } }
/// }
///
/// let console = RecordedLines()
/// try Interpreter.live(console: console).perform([.print("Computed: 15129")])
/// #expect(console.lines == ["Computed: 15129"])
/// ```
///
/// The requirement is `write(_:)`, not `print(_:)`, so that a conforming type never shadows
/// `Swift.print` inside its own methods.
public protocol Console: Sendable {
  /// Writes `line`, followed by a line break.
  func write(_ line: String)
}
