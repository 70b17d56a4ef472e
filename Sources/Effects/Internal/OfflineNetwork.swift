import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The ``Environment/network`` a test environment answers before test support installs its
/// stubs (the placeholder of `Environment.unimplemented()`, which reports the read first): no
/// request leaves the machine, each one fails as with no network.
struct OfflineNetwork: Network {
  func send(_ request: URLRequest) async throws -> NetworkResponse {
    throw URLError(.notConnectedToInternet)
  }
}
