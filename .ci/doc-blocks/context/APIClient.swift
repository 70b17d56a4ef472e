// What the blocks that declare an `APIClientKey` (the README, the Co-effects article) assume and
// do not show: an app's API client, its live implementation and a test double.
protocol APIClient: Sendable {
  func fetchGreeting() async throws -> String
}

struct LiveAPIClient: APIClient {
  func fetchGreeting() async throws -> String { "Hello from the server" }
}

struct FailingAPIClient: APIClient {
  struct Unimplemented: Error {}
  func fetchGreeting() async throws -> String { throw Unimplemented() }
}
