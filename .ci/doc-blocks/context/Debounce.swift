// What articles that debounce assume: `debounce(for:clock:)`.

// STAND-IN for swift-async-algorithms' `debounce(for:clock:)`, which the doc-blocks package does
// not depend on. Same call shape (an element is passed on once `interval` has passed on `clock`
// with no newer one), so the article's `SearchModel` compiles and its test runs; apps use the real
// operator from `import AsyncAlgorithms`.
extension AsyncSequence where Self: Sendable, Element: Sendable {
  func debounce<C: Clock>(for interval: C.Duration, clock: C) -> AsyncStream<Element> {
    AsyncStream { continuation in
      let upstream = Task {
        var pending: Task<Void, Never>?
        do {
          for try await element in self {
            pending?.cancel()
            pending = Task {
              do { try await clock.sleep(for: interval) } catch { return }
              continuation.yield(element)
            }
          }
        } catch {}
        pending?.cancel()
        continuation.finish()
      }
      continuation.onTermination = { _ in upstream.cancel() }
    }
  }
}
