/// Performs a feature's effects, each in a task of its own, and cancels an effect in flight when
/// a new one with the same identity supersedes it — the part of an interactor that is the same in
/// every app.
///
/// Give it the function that performs one effect, and the rule that says which effects supersede
/// each other; the interactor hands it the effects its reducer asks for:
///
/// ```swift
/// @MainActor final class SearchModel {
///   private(set) var state = SearchState()
///   private let effects: EffectRunner<SearchEffect, SearchAction>
///
///   init(environment: Environment = .current) {
///     effects = EffectRunner(cancelInFlight: { $0.isSearch ? "search" : nil }) { effect, send in
///       await SearchModel.perform(effect, environment: environment, send: send)
///     }
///   }
///
///   func send(_ action: SearchAction) {
///     let outcome = SearchReducer().reduce(state, action)
///     state = outcome.value
///     // A new search cancels the one in flight. `send` is held while an effect runs: pass it
///     // weakly, so the model can go away with its effects running, and the runner cancels them.
///     effects.start(outcome.effects) { [weak self] in self?.send($0) }
///   }
/// }
/// ```
///
/// An effect superseded this way has its task cancelled, and whatever it sends after that is
/// dropped — even when it ignores the cancellation and answers anyway — so a stale answer never
/// reaches the state. Effects whose identity is `nil` run side by side. A runner released while
/// effects run cancels them, and drops what they send. Each running effect holds the `send` it was
/// given until it ends: a `send` that holds the runner's owner strongly (`send: send`) keeps the
/// owner, and so the runner, alive until its effects end.
///
/// `FeatureTester` (in `EffectsTestSupport`) runs its effects through an `EffectRunner` too: give it
/// the interactor's runner and the test exercises the cancellation the app performs.
@MainActor
public final class EffectRunner<E: Sendable, Action> {
  /// Performs one effect against the world, and sends the actions it produces.
  typealias Perform = @MainActor (_ effect: E, _ send: @escaping @MainActor (Action) -> Void) async -> Void

  /// One effect being performed.
  private struct Run: Sendable {
    var number: Int
    var task: Task<Void, Never>
    var flag: CancellationFlag
  }

  private let perform: Perform
  private let cancelInFlight: (E) -> AnyHashable?
  /// The effects running now, in the order they started.
  private var runs: [Run] = []
  /// The identity of each running effect that has one, by run number. Apart from ``runs``
  /// because `AnyHashable` is not `Sendable`, and `deinit` reads ``runs``.
  private var identities: [Int: AnyHashable] = [:]
  private var nextNumber = 0

  /// Creates a runner that performs each effect with `perform`.
  ///
  /// ```swift
  /// let effects = EffectRunner<LoginEffect, LoginAction>(cancelInFlight: \.cancelID) { effect, send in
  ///   await LoginInteractor.perform(effect, environment: environment, send: send)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - cancelInFlight: The identity of an effect: when an effect whose identity is not `nil`
  ///     starts, the effects still running with the same identity are cancelled. `nil` (the
  ///     default for every effect) lets effects run side by side.
  ///   - perform: Performs one effect, and feeds actions back with `send`, any number of times.
  public init(
    cancelInFlight: @escaping (E) -> AnyHashable? = { _ in nil },
    perform: @escaping @MainActor (_ effect: E, _ send: @escaping @MainActor (Action) -> Void) async -> Void
  ) {
    self.cancelInFlight = cancelInFlight
    self.perform = perform
  }

  /// How many effects are running now: started and not ended, cancelled ones included until
  /// their task ends.
  ///
  /// ```swift
  /// effects.start([.search("s")], send: send)
  /// effects.runningCount  // 1
  /// ```
  public var runningCount: Int { runs.count }

  /// Starts each effect in a task of its own, in order, cancelling first the running effects each
  /// one supersedes. What they send reaches `send`, on the main actor.
  ///
  /// ```swift
  /// let outcome = reducer.reduce(state, action)
  /// state = outcome.value
  /// effects.start(outcome.effects) { [weak self] in self?.send($0) }
  /// ```
  public func start(_ effects: [E], send: @escaping @MainActor (Action) -> Void) {
    for effect in effects {
      start(effect, send: send) {}
    }
  }

  /// Cancels every effect still running; what they send from now on is dropped.
  ///
  /// ```swift
  /// func screenDisappeared() { effects.cancelAll() }
  /// ```
  public func cancelAll() {
    for run in runs { cancel(run) }
    identities = [:]
  }

  /// Starts `effect` in a task of its own, cancelling first the running effects it supersedes;
  /// calls `onEnd` when it has been performed, cancelled or not. The task is returned.
  @discardableResult
  package func start(
    _ effect: E,
    send: @escaping @MainActor (Action) -> Void,
    onEnd: @escaping @MainActor () -> Void
  ) -> Task<Void, Never> {
    let number = nextNumber
    nextNumber += 1
    if let identity = cancelInFlight(effect) {
      for run in runs where identities[run.number] == identity {
        cancel(run)
        identities[run.number] = nil
      }
      identities[number] = identity
    }
    let flag = CancellationFlag()
    let perform = perform
    let task = Task { [weak self] in
      await perform(effect) { [weak self] action in
        guard self != nil, !flag.isCancelled else { return }
        send(action)
      }
      self?.end(number)
      onEnd()
    }
    runs.append(Run(number: number, task: task, flag: flag))
    return task
  }

  private func cancel(_ run: Run) {
    run.flag.isCancelled = true
    run.task.cancel()
  }

  private func end(_ number: Int) {
    runs.removeAll { $0.number == number }
    identities[number] = nil
  }

  // A runner released with effects running cancels them, and drops what they send from now on
  // (their `send` holds the runner weakly): nobody is there to reduce it.
  deinit {
    for run in runs { run.task.cancel() }
  }
}

/// Whether a run was cancelled by its runner: read by its `send`, which then drops what it is given.
@MainActor
private final class CancellationFlag {
  var isCancelled = false
}
