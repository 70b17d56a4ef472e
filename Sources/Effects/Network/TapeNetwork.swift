#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
#else
import Foundation
#endif

/// The network of ``Environment/preview(network:now:)``: answers each request from a tape, at
/// once, and any other as offline.
///
/// An exchange answers the requests its request matches (`NetworkTape.Exchange.answers(_:)`);
/// several exchanges of one request answer in their order, and the last one keeps answering, as
/// `StubNetwork`'s stubs do.
final class TapeNetwork: Network, Sendable {
  private let exchanges: [NetworkTape.Exchange]
  /// The exchanges that have answered.
  private let used = Locked<Set<Int>>([])

  init(_ tape: NetworkTape) {
    exchanges = tape.exchanges
  }

  func send(_ request: URLRequest) async throws -> NetworkResponse {
    try Task.checkCancellation()
    let request = NetworkRequest(request)
    let answer = used.withLock { used -> Int? in
      let matching = exchanges.indices.filter { exchanges[$0].answers(request) }
      guard let index = matching.first(where: { !used.contains($0) }) ?? matching.last else { return nil }
      used.insert(index)
      return index
    }
    guard let answer else { throw URLError(.notConnectedToInternet) }
    return exchanges[answer].response
  }
}
