package import Effects

// App-defined co-effects, declared the way the README shows.

/// A client an app would fetch with.
package protocol APIClient: Sendable {
  func fetchName() -> String
}

package struct LiveAPIClient: APIClient {
  package init() {}
  package func fetchName() -> String { "live" }
}

package struct MockAPIClient: APIClient {
  package var name = "mock"
  package init(name: String = "mock") { self.name = name }
  package func fetchName() -> String { name }
}

/// A key with a test value.
package enum APIClientKey: CoeffectKey {
  package static let liveValue: any APIClient = LiveAPIClient()
  package static let testValue: any APIClient = MockAPIClient()
}

/// A key with no test value.
package enum AnalyticsEndpointKey: CoeffectKey {
  package static let liveValue = "https://analytics.example.com"
}

/// A greeter with a test value.
package protocol Greeter: Sendable {
  func greet(_ name: String) -> String
}

package struct LiveGreeter: Greeter {
  package init() {}
  package func greet(_ name: String) -> String { "Hello, \(name)!" }
}

package struct TestGreeter: Greeter {
  package init() {}
  package func greet(_ name: String) -> String { "Test hello, \(name)" }
}

package enum GreeterKey: CoeffectKey {
  package static let liveValue: any Greeter = LiveGreeter()
  package static let testValue: any Greeter = TestGreeter()
}

/// A key that declares no test value.
package enum FeatureFlagsKey: CoeffectKey {
  package static let liveValue: Set<String> = ["live-only"]
}

extension Environment {
  package var apiClient: any APIClient {
    get { self[APIClientKey.self] }
    set { self[APIClientKey.self] = newValue }
  }

  package var greeter: any Greeter {
    get { self[GreeterKey.self] }
    set { self[GreeterKey.self] = newValue }
  }
}
