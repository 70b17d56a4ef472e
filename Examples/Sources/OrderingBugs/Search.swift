public import Effects

/// Shape 8's search: the app's local index (the device's own, not the network), an actor that does
/// not stop for a cancelled caller. The bug's debounce searches it after Cancel; the fix's never
/// does.
public actor SearchIndex {
  private let entries: [String]
  /// How many searches it has run.
  public private(set) var searches = 0

  /// An index of `entries`.
  public init(_ entries: [String]) {
    self.entries = entries
  }

  /// The entries that start with `query`.
  public func search(_ query: String) -> [String] {
    searches += 1
    return entries.filter { $0.lowercased().hasPrefix(query.lowercased()) }
  }
}

/// Shape 8, a debounce racing a cancel. Typing schedules a search 300 ms later, in a task that a
/// new keystroke or Cancel cancels; but the task swallows the cancellation of its sleep
/// (`try?`), so a Cancel that lands as the debounce fires is ignored: the search runs, and its
/// results show on a cleared screen.
///
/// The fix, ``SearchModel``: a cancelled sleep ends the task (`do { try await … } catch { return }`),
/// and a search cancelled while it ran shows nothing.
@MainActor public final class LeakyDebounceSearchModel {
  /// The results shown.
  public private(set) var results: [String] = []
  private let index: SearchIndex
  private let clock: DurationClock
  private var pending: Task<Void, Never>?

  /// A model searching `index`, debounced on `environment`'s clock.
  public init(index: SearchIndex, environment: Environment = .current) {
    self.index = index
    clock = environment.continuousClock
  }

  /// The user typed: searches for `query` once they stop typing for 300 ms. The bug: its sleep's
  /// cancellation is swallowed (`try?`); the fix returns when the sleep throws.
  public func type(_ query: String) {
    pending?.cancel()
    pending = Task {
      // The bug: `try?` swallows the cancellation, and the search runs all the same.
      try? await clock.sleep(for: .milliseconds(300))
      results = await index.search(query)
    }
  }

  /// The user tapped Cancel: no search, no results. The bug: a debounce firing at this instant
  /// ignores it.
  public func cancel() {
    pending?.cancel()
    pending = nil
    results = []
  }
}

/// Shape 8, fixed: ``LeakyDebounceSearchModel`` whose debounce ends when its sleep is cancelled, and
/// shows no results once cancelled.
@MainActor public final class SearchModel {
  /// The results shown.
  public private(set) var results: [String] = []
  private let index: SearchIndex
  private let clock: DurationClock
  private var pending: Task<Void, Never>?

  /// A model searching `index`, debounced on `environment`'s clock.
  public init(index: SearchIndex, environment: Environment = .current) {
    self.index = index
    clock = environment.continuousClock
  }

  /// The user typed: searches for `query` once they stop typing for 300 ms. The fix: a cancelled
  /// sleep ends the search, and a search cancelled meanwhile shows nothing.
  public func type(_ query: String) {
    pending?.cancel()
    pending = Task {
      do { try await clock.sleep(for: .milliseconds(300)) } catch { return }
      let found = await index.search(query)
      guard !Task.isCancelled else { return }
      results = found
    }
  }

  /// The user tapped Cancel: no search, no results.
  public func cancel() {
    pending?.cancel()
    pending = nil
    results = []
  }
}
