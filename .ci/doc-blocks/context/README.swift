// What the README's blocks assume and do not show: an app's API client, live and failing.
import Foundation

protocol APIClient: Sendable {
  func greeting() async throws -> String
}

struct LiveAPIClient: APIClient {
  func greeting() async throws -> String { "Hello" }
}

struct FailingAPIClient: APIClient {
  struct NotStubbed: Error {}
  func greeting() async throws -> String { throw NotStubbed() }
}
