import AsyncAlgorithms

/// A search box: it searches once the user has stopped typing for 300 ms (swift-async-algorithms'
/// `debounce`), and shows the last search's results.
///
/// ```swift
/// let model = SearchModel(clock: ContinuousClock()) { query in await api.search(query) }
/// model.start()
/// model.type("sw")   // from the text field
/// ```
@MainActor public final class SearchModel<C: Clock<Duration>> {
  /// The queries searched for, in order.
  public private(set) var searches: [String] = []
  /// The results of the last search.
  public private(set) var results: [String] = []

  private let clock: C
  private let search: @Sendable (String) async -> [String]
  private let queries: AsyncStream<String>
  private let input: AsyncStream<String>.Continuation
  private var task: Task<Void, Never>?

  /// A model that debounces on `clock` and searches with `search`.
  public init(clock: C, search: @escaping @Sendable (String) async -> [String]) {
    self.clock = clock
    self.search = search
    (queries, input) = AsyncStream.makeStream()
  }

  /// Starts listening to what the user types.
  public func start() {
    let queries = queries.debounce(for: .milliseconds(300), clock: clock)
    let search = search
    task = Task { [weak self] in
      for await query in queries {
        self?.searches.append(query)
        let found = await search(query)
        self?.results = found
      }
    }
  }

  /// The text field changed.
  public func type(_ query: String) {
    input.yield(query)
  }

  /// Stops listening.
  public func stop() {
    input.finish()
    task?.cancel()
  }
}
