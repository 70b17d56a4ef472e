/// A search box that searches 300 ms after the last keystroke: the debounce shape, one task at a
/// time, each cancelled by the next keystroke.
///
/// It sleeps with the closure it is given: each way's own call, as that way's users write it.
@MainActor public final class SearchBox {
  private let sleep: @Sendable (Duration) async throws -> Void
  public private(set) var searches: [String] = []
  private var pending: Task<Void, Never>?

  public init(sleep: @escaping @Sendable (Duration) async throws -> Void) {
    self.sleep = sleep
  }

  public func type(_ query: String) {
    pending?.cancel()
    pending = Task { [sleep] in
      do { try await sleep(.milliseconds(300)) } catch { return }
      searches.append(query)
    }
  }
}
