import AsyncAlgorithms
public import Effects
public import Foundation

/// A search box reading its clock from the environment: it searches once the user has stopped
/// typing for 300 ms (swift-async-algorithms' `debounce` on `environment.continuousClock`), and
/// gives each result an identifier from `environment.uuid`.
///
/// No clock is passed in: in the app it debounces on `ContinuousClock`, and a model made inside
/// `@Test(.virtualTime)` debounces on the test's virtual time, with nothing to wire.
///
/// ```swift
/// let model = CatalogSearchModel { query in await api.search(query) }
/// model.start()
/// model.type("sw")   // from the text field
/// ```
@MainActor public final class CatalogSearchModel {
  /// A result on screen, with an identifier of its own.
  public struct Result: Equatable, Sendable {
    /// The result's identifier.
    public var id: UUID
    /// What was found.
    public var title: String

    /// A result.
    public init(id: UUID, title: String) {
      self.id = id
      self.title = title
    }
  }

  /// The queries searched for, in order.
  public private(set) var searches: [String] = []
  /// The results of the last search.
  public private(set) var results: [Result] = []

  private let environment: Environment
  private let search: @Sendable (String) async -> [String]
  private let queries: AsyncStream<String>
  private let input: AsyncStream<String>.Continuation
  private var task: Task<Void, Never>?

  /// A model that searches with `search`, on `environment`'s clock and identifiers.
  public init(environment: Environment = .current, search: @escaping @Sendable (String) async -> [String]) {
    self.environment = environment
    self.search = search
    (queries, input) = AsyncStream.makeStream()
  }

  /// Starts listening to what the user types.
  public func start() {
    let queries = queries.debounce(for: .milliseconds(300), clock: environment.continuousClock)
    let search = search
    task = Task { [weak self] in
      for await query in queries {
        self?.searches.append(query)
        let found = await search(query)
        self?.show(found)
      }
    }
  }

  private func show(_ found: [String]) {
    results = found.map { Result(id: environment.uuid(), title: $0) }
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
