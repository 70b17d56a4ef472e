import Effects

/// An app-defined co-effect, declared the way the README shows.
protocol Greeter: Sendable {
  func greet(_ name: String) -> String
}

struct LiveGreeter: Greeter {
  func greet(_ name: String) -> String { "Hello, \(name)!" }
}

struct TestGreeter: Greeter {
  func greet(_ name: String) -> String { "Test hello, \(name)" }
}

enum GreeterKey: CoeffectKey {
  static let liveValue: any Greeter = LiveGreeter()
  static let testValue: any Greeter = TestGreeter()
}

/// A key that declares no test value.
enum FeatureFlagsKey: CoeffectKey {
  static let liveValue: Set<String> = ["live-only"]
}

extension Environment {
  var greeter: any Greeter {
    get { self[GreeterKey.self] }
    set { self[GreeterKey.self] = newValue }
  }
}
