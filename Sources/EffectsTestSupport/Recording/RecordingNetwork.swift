import Effects
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A network that logs each request as `network.send` with the request (`GET https://…`), then
/// sends it through `base`.
struct RecordingNetwork: Network {
  let base: any Network
  let log: CallLog

  func send(_ request: URLRequest) async throws -> NetworkResponse {
    log.record("network.send", NetworkRequest(request).description)
    return try await base.send(request)
  }

  /// The `StubNetwork` `network` is, or sends through under any number of recordings; nil when it
  /// is another network.
  static func stubs(in network: any Network) -> StubNetwork? {
    var network = network
    while let recording = network as? RecordingNetwork { network = recording.base }
    return network as? StubNetwork
  }
}
