import Effects
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A network that logs each request as `network.send` with the request (`GET https://…`), then
/// sends it through `base`.
struct RecordingNetwork: Networking {
  let base: any Networking
  let log: CallLog

  func send(_ request: URLRequest) async throws -> NetworkResponse {
    log.record("network.send", NetworkRequest(request).description)
    return try await base.send(request)
  }
}
