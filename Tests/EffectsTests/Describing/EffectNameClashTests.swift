import Effects
import EffectsTestSupport
import Foundation
import Testing

// Ordinary user code in a file that imports Effects: none of it needs a module qualifier, except
// inside a type whose own method is named `print` (a `Console`), where `print` means that method.

/// An app's own effect, used as a generic argument.
private enum MyEffect: Equatable, Sendable {
  case ping
}

/// A user's console: inside it, `print` is its own requirement, so Swift's function is
/// `Swift.print` (the compiler says so, with a fix-it, for any other arguments).
private struct PrefixingConsole: Console {
  let output: Locked<String>

  func print(_ line: String) {
    output.withLock { Swift.print("> \(line)", to: &$0) }
  }
}

/// Generic code whose generic parameter has a different name from the built-in `Effect`.
private func describeAll<Element>(_ items: [Element]) -> [String] {
  items.map { String(describing: $0) }
}

/// `Effect` named inside generic code: it is the built-in enum, not a generic parameter.
private func announce<Value>(_ value: Value) -> Outcome<Value, Effect> {
  Outcome(value: value, effects: [.print("value: \(value)")])
}

/// A generic wrapper holding both an app's effects and built-in ones.
private struct Batch<E: Sendable>: Sendable {
  var custom: [E]
  var builtIn: [Effect]
}

struct EffectNameClashTests {
  @Test func anUnqualifiedPrintCallsSwiftPrintNotTheEffectCase() {
    var output = ""
    print("hello", terminator: "", to: &output)
    let result: Void = print("", terminator: "")
    #expect(output == "hello")
    #expect(result == ())
  }

  @Test func aConsoleWrittenByAUserPrintsThroughSwiftPrint() throws {
    let output = Locked("")
    var environment = Environment.test()
    environment.console = PrefixingConsole(output: output)
    try Interpreter.live(environment: environment).perform([.print("hi")])
    #expect(output.snapshot == "> hi\n")
  }

  @Test func aGenericInterpreterOfAnAppsEffectCompiles() throws {
    let count = Locked(0)
    let interpreter = Interpreter<MyEffect> { _ in count.withLock { $0 += 1 } }
    try interpreter.perform([.ping, .ping])
    #expect(count.snapshot == 2)
  }

  @Test func effectInsideGenericCodeIsTheBuiltInEnum() {
    let outcome = announce(42)
    #expect(outcome.effects == [.print("value: 42")])
    let batch = Batch<MyEffect>(custom: [.ping], builtIn: [.removeDefault(for: "k")])
    #expect(describeAll(batch.custom) == ["ping"])
    #expect(describeAll(batch.builtIn) == [#"removeDefault(for: "k")"#])
  }
}
