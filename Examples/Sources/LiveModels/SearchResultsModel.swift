import AsyncAlgorithms
public import Effects
import Foundation

/// A search screen: what the user types is searched once they stop typing for 300 ms
/// (swift-async-algorithms' `debounce`). The server answers a search in pages, one request each,
/// until a page comes back empty; the list grows as pages arrive, and reaches the view through
/// ``results`` at most once every 250 ms — the latest list, and the last one when the search ends
/// (`throttle`), so the list does not redraw under the user's finger.
///
/// Its clock and network come from the environment: made inside `@Test(.virtualTime)`, the
/// whole pipeline runs on the test's virtual time, and the server is the test's `StubNetwork`.
///
/// ```swift
/// let model = SearchResultsModel()
/// model.start()
/// model.type("piz")   // from the text field
/// for await results in model.results { show(results) }
/// ```
@MainActor public final class SearchResultsModel {
  /// The server's search endpoint; the query goes in `q`, the page (from 1) in `page`.
  public static let endpoint = "https://menu.example.com/search"

  /// The results of the searches, as they grow, at most one list every 250 ms.
  public let results: AsyncStream<[String]>

  private let environment: Environment
  private let queries: AsyncStream<String>
  private let typed: AsyncStream<String>.Continuation
  private let published: AsyncStream<[String]>.Continuation
  private var pipeline: Task<Void, Never>?

  /// A model that searches through `environment`'s network, on its clock.
  public init(environment: Environment = .current) {
    self.environment = environment
    (queries, typed) = AsyncStream.makeStream()
    (results, published) = AsyncStream.makeStream()
  }

  /// The request for page `page` (from 1) of the results for `query`: what a test stubs.
  public static func request(for query: String, page: Int) -> NetworkRequest {
    let encoded = query.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? query
    return .get("\(endpoint)?q=\(encoded)&page=\(page)")
  }

  /// Starts searching what the user types.
  public func start() {
    let clock = environment.continuousClock
    let network = environment.network
    let queries = queries.debounce(for: .milliseconds(300), clock: clock)
    pipeline = Task { [published] in
      for await query in queries {
        let lists = Self.pages(of: query, from: network)
        // `_throttle` is swift-async-algorithms 1.1's spelling of `throttle` (still underscored
        // there). It lets a list through when the next one arrives 250 ms or more after the last
        // it let through, or when the search ends: the last list always reaches the view.
        for await list in lists._throttle(for: .milliseconds(250), clock: clock, latest: true) {
          published.yield(list)
        }
      }
      published.finish()
    }
  }

  /// The list of results for `query` after each page: a sequence that ends with the last page
  /// (an empty one, a failure, or the tenth).
  nonisolated private static func pages(of query: String, from network: any Network) -> AsyncStream<[String]> {
    AsyncStream { continuation in
      let task = Task {
        var list: [String] = []
        for page in 1...10 {
          guard let response = try? await network.send(request(for: query, page: page)), response.isSuccess,
            let items = try? response.decode([String].self), !items.isEmpty
          else { break }
          list += items
          continuation.yield(list)
        }
        continuation.finish()
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }

  /// What the text field holds now.
  public func type(_ query: String) {
    typed.yield(query)
  }

  /// The screen is gone: a search the user is waiting for still ends, then ``results`` ends.
  public func stop() {
    typed.finish()
  }
}
