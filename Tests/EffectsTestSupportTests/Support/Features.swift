import Effects
import EffectsTestSupport

// Small features for FeatureTester's tests, shaped like an app's: a pure reducer, and effects
// performed against the world by a `@MainActor` interactor whose `perform` the tests hand to the
// tester — the code the app runs.

// MARK: Loading, with a retry after a backoff

enum Load: Equatable, Sendable {
  case idle
  case loading
  case loaded(Item)
  case failed(String)
}

struct Item: Equatable, Sendable {
  var id: String
  var title: String
  var tags: [String] = []
}

enum LoadAction: Equatable, Sendable {
  case load
  case retry
  case answered(Item)
  case failed(String)
}

enum LoadEffect: Equatable, Sendable {
  case fetch(id: String, after: Duration)
}

struct LoadReducer {
  var id = "42"
  var backoff = Duration.seconds(2)

  func reduce(_ state: Load, _ action: LoadAction) -> Outcome<Load, LoadEffect> {
    switch (state, action) {
    case (.idle, .load): Outcome(value: .loading, effects: [.fetch(id: id, after: .zero)])
    case (.loading, .answered(let item)): .pure(.loaded(item))
    case (.loading, .failed(let message)): .pure(.failed(message))
    case (.failed, .retry): Outcome(value: .loading, effects: [.fetch(id: id, after: backoff)])
    default: .pure(state)
    }
  }
}

/// An API whose answers a spy gives, `latency` later in the scheduler's virtual time.
struct CatalogAPI: Sendable {
  /// Where the latency's sleep says it was scheduled, as pending work names it.
  static let sleepSite = CallSite()
  let fetches = Spy<String, Item>("api.fetch")
  let latency: Duration
  let scheduler: TestScheduler

  init(latency: Duration = .milliseconds(300), scheduler: TestScheduler = .current) {
    self.latency = latency
    self.scheduler = scheduler
  }

  nonisolated(nonsending) func fetch(_ id: String) async throws -> Item {
    let answer = Result { try fetches(id) }
    try await scheduler.sleep(for: latency, at: Self.sleepSite)
    return try answer.get()
  }
}

struct ServerDown: Error, CustomStringConvertible {
  var description: String { "offline" }
}

/// The interactor of the app: it holds the state, and performs the reducer's effects with
/// `perform`, which the tests give the tester.
@MainActor final class LoadInteractor {
  /// Where the backoff's sleep says it was scheduled, as pending work names it.
  static let backoffSite = CallSite()
  private(set) var state = Load.idle
  private let reducer: LoadReducer
  private let api: CatalogAPI
  private let environment: Environment

  init(reducer: LoadReducer = LoadReducer(), api: CatalogAPI, environment: Environment = .current) {
    self.reducer = reducer
    self.api = api
    self.environment = environment
  }

  func send(_ action: LoadAction) {
    let outcome = reducer.reduce(state, action)
    state = outcome.value
    for effect in outcome.effects {
      Task { await perform(effect, send: send) }
    }
  }

  func perform(_ effect: LoadEffect, send: @MainActor (LoadAction) -> Void) async {
    switch effect {
    case .fetch(let id, let delay):
      do {
        if delay > .zero { try await environment.scheduler.sleep(for: delay, at: Self.backoffSite) }
        send(.answered(try await api.fetch(id)))
      } catch is CancellationError {
        // Nobody waits for the answer any more.
      } catch {
        send(.failed("\(error)"))
      }
    }
  }
}

// MARK: Searching as the user types: a new query supersedes the search in flight

struct Search: Equatable, Sendable {
  var query = ""
  var results: [String] = []
}

enum SearchAction: Equatable, Sendable {
  case type(String)
  case found([String])
}

enum SearchEffect: Equatable, Sendable {
  case search(String)
}

func reduceSearch(_ state: Search, _ action: SearchAction) -> Outcome<Search, SearchEffect> {
  var state = state
  switch action {
  case .type(let query):
    state.query = query
    return Outcome(value: state, effects: [.search(query)])
  case .found(let results):
    state.results = results
    return .pure(state)
  }
}

/// Waits 300 ms on the scheduler (a debounce), then asks `searches` and sends what it answers.
@MainActor func performSearch(
  _ effect: SearchEffect,
  searches: Spy<String, [String]>,
  send: @MainActor ([String]) -> Void
) async {
  guard case .search(let query) = effect else { return }
  do {
    try await Environment.current.scheduler.sleep(for: .milliseconds(300))
    send(try searches(query))
  } catch {
    return
  }
}

// MARK: A timer that ticks

enum TimerAction: Equatable, Sendable {
  case start(ticks: Int)
  case tick
  case stop
}

enum TimerEffect: Equatable, Sendable {
  case ticks(Int, every: Duration)
  case ping(String)
}

func reduceTimer(_ count: Int, _ action: TimerAction) -> Outcome<Int, TimerEffect> {
  switch action {
  case .start(let ticks): Outcome(value: count, effects: [.ticks(ticks, every: .seconds(1))])
  case .tick: .pure(count + 1)
  case .stop: .pure(count)
  }
}

/// Where the timer's sleep says it was scheduled, as pending work names it.
let timerSleepSite = CallSite()

/// Sends `.tick` every interval, `count` times; `.ping` sends nothing, at once.
@MainActor func performTimer(_ effect: TimerEffect, send: @MainActor (TimerAction) -> Void) async {
  switch effect {
  case .ticks(let count, let interval):
    for _ in 0..<count {
      do { try await Environment.current.scheduler.sleep(for: interval, at: timerSleepSite) } catch { return }
      send(.tick)
    }
  case .ping:
    return
  }
}
