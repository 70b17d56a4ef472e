/// The live ``Console``: lines go to the process's standard output, as `Swift.print` writes them.
///
/// ```swift
/// var environment = Environment.live
/// environment.console = StandardOutput()  // already the live console
/// ```
package struct StandardOutput: Console {
  /// Creates the console for standard output.
  package init() {}

  /// Prints `line` and a line break to standard output.
  package func print(_ line: String) {
    Swift.print(line)
  }
}
