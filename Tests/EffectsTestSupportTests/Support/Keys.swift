import Effects

protocol APIClient: Sendable {
  func fetchName() -> String
}

struct LiveAPIClient: APIClient {
  func fetchName() -> String { "live" }
}

struct MockAPIClient: APIClient {
  var name = "mock"
  func fetchName() -> String { name }
}

/// A key with a test value.
enum APIClientKey: CoeffectKey {
  static let liveValue: any APIClient = LiveAPIClient()
  static let testValue: any APIClient = MockAPIClient()
}

/// A key with no test value.
enum AnalyticsEndpointKey: CoeffectKey {
  static let liveValue = "https://analytics.example.com"
}

extension Environment {
  var apiClient: any APIClient {
    get { self[APIClientKey.self] }
    set { self[APIClientKey.self] = newValue }
  }
}
