// What the blocks of Sources/EffectsTestSupport/Documentation.docc/Articles/TestingAsyncSequences.md
// assume and do not show: the app's `SearchModel` (and `debounce(for:clock:)`, in Debounce.swift).
import Effects

/// A search box: what the user types is searched once they stop typing for 300 ms, on the
/// environment's clock, and each list of results reaches the view through `results`.
@MainActor final class SearchModel {
  let results: AsyncStream<[String]>
  private let typed: AsyncStream<String>.Continuation
  private let published: AsyncStream<[String]>.Continuation

  init(environment: Environment = .current, search: @escaping @Sendable (String) async -> [String]) {
    let (queries, typed) = AsyncStream<String>.makeStream()
    let (results, published) = AsyncStream<[String]>.makeStream()
    self.typed = typed
    self.results = results
    self.published = published
    let debounced = queries.debounce(for: .milliseconds(300), clock: environment.continuousClock)
    Task { [published] in
      for await query in debounced { published.yield(await search(query)) }
      published.finish()
    }
  }

  func type(_ query: String) {
    typed.yield(query)
  }

  func stop() {
    typed.finish()
  }
}
