import Foundation

/// The built-in ``Environment/console`` co-effect.
package enum ConsoleKey: BuiltInKey {
  package static var slot: Int { BuiltInSlot.console.rawValue }
  package static let member = "console"
  package static let liveValue: any Console = StandardOutput()
  package static var testValue: any Console { InMemoryConsole() }
}

extension Environment {
  /// Where `.print` writes. Live: standard output; in a test environment, an
  /// ``InMemoryConsole`` that keeps the lines.
  public var console: any Console {
    get { self[builtIn: ConsoleKey.self] }
    set { self[builtIn: ConsoleKey.self] = newValue }
  }
}
