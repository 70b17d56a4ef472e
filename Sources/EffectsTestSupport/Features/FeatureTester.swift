public import Effects

/// Tests a feature — a reducer, and the effects it asks for performed against the world — step by
/// step on virtual time, and exhaustively: every state change, every effect asked for, every action
/// the effects feed back and every effect still running must be accounted for by the test.
///
/// A feature is three pieces, the shape of the Profile example's: a pure reducer
/// `(State, Action) -> Outcome<State, E>`, an effect handler that performs one effect against
/// the world (a service, the environment's scheduler) and feeds actions back with `send`, and the
/// interactor that wires them together in the app. The tester takes the first two — the same code
/// the interactor runs — and replaces the interactor:
///
/// ```swift
/// @MainActor @Test(.virtualTime) func loadingShowsTheProfile() async {
///   let service = ProfileServiceDouble(latency: .milliseconds(300), scheduler: .current)
///   service.fetches.stub(returning: .blob)
///   let tester = FeatureTester(
///     initialState: ProfileState.initialized,
///     reducer: ProfileReducer(userID: "42").reduce
///   ) { effect, send in
///     await ProfileInteractor.perform(effect, service: service, environment: .current, send: send)
///   }
///
///   await tester.send(.load) { $0 = .loading }           // the state change, as a mutation
///   tester.assertEffects([.fetchProfile(userID: "42")])  // the effects, as values
///   await tester.advance(by: .milliseconds(300))         // virtual time: the service answers
///   await tester.receive(.fetched(.blob)) { $0 = .loaded(.blob) }
///   await tester.finish()                                // nothing left unasserted or running
/// }
/// ```
///
/// ## Exhaustive by default
/// - ``send(_:assert:fileID:filePath:line:column:)`` reduces an action and checks the new state
///   against the previous one changed by `assert` (no `assert`: no change); a mismatch is reported
///   with a line diff of the two states.
/// - The effects a step asked for are values: ``assertEffects(_:fileID:filePath:line:column:)``
///   compares them after the step. Effects not asserted by the next step (or `finish()`) are
///   reported at the step that asked for them.
/// - The tester performs each effect in a task of its own, started inside the virtual-time scope.
///   An action an effect feeds back is reduced when it arrives, as the interactor would, and
///   queued; ``receive(_:assert:fileID:filePath:line:column:)`` takes the next one, in order, and
///   checks its state change. Actions received and not asserted are reported by the next `send`,
///   `advance` or `finish()`: so an action that arrives earlier than the test says fails the test.
/// - ``finish(fileID:filePath:line:column:)`` reports what is left: actions received and not asserted, effects not asserted,
///   effects still running (cancelled then), and work still pending on the scheduler.
///
/// Set ``exhaustivity`` to ``Exhaustivity/off`` for an integration-style test that asserts only
/// what it cares about.
///
/// ## Exact time, no timeouts
/// The tester runs on the ``TestScheduler`` of the virtual-time scope it is made in
/// (`@Test(.virtualTime)`, `withVirtualTime { … }`, or `scheduler.withVirtualTime { … }` with
/// `scheduler:` passed). Every step ends by settling the scope (`await scheduler.advance()`),
/// so each effect has run to its next suspension; `receive` never waits on real time, and never
/// moves virtual time: when nothing has arrived it says so at once, listing the work pending on
/// the scheduler, so the test knows how far to ``advance(by:fileID:filePath:line:column:)``.
///
/// ## Cancellation
/// Pass `cancelInFlight` to give effects an identity: when an effect whose identity is not `nil`
/// starts while an earlier one with the same identity is still running, the earlier one's task is
/// cancelled (a new search supersedes the one in flight). An action fed back by a cancelled effect
/// is dropped. The tester performs effects through an `EffectRunner`: an interactor that runs its
/// effects through one too cancels and drops exactly as the test saw, and can hand the tester its
/// own runner (``init(initialState:reducer:effects:exhaustivity:scheduler:fileID:filePath:line:column:)``).
///
/// Use it from a `@MainActor` test: the tester, its reducer and its effect handler run on the main
/// actor, as an interactor does.
///
/// Its type is `FeatureTester<State, Action, E>`, `E` being the feature's own effect type (as in
/// `Outcome<State, E>`), spelled out when a helper makes one:
///
/// ```swift
/// @MainActor func makeTester(api: CatalogAPI) -> FeatureTester<SearchState, SearchAction, SearchEffect> {
///   FeatureTester(initialState: SearchState(), reducer: SearchReducer().reduce) { effect, send in
///     await SearchInteractor.perform(effect, api: api, send: send)
///   }
/// }
/// ```
@MainActor
public final class FeatureTester<
  State: Equatable & Sendable,
  Action: Equatable & Sendable,
  E: Equatable & Sendable
> {
  /// The feature's state now: after every action sent, and every action the effects fed back so
  /// far — received by the test or not.
  ///
  /// ```swift
  /// await tester.send(.load) { $0 = .loading }
  /// #expect(tester.state == .loading)
  /// ```
  public internal(set) var state: State

  /// Whether the test must account for everything that happens (``Exhaustivity/on``, the
  /// default), or only for what it asserts (``Exhaustivity/off``). It may change between steps.
  ///
  /// ```swift
  /// tester.exhaustivity = .off  // from here on, unasserted effects and actions are fine
  /// ```
  public var exhaustivity: Exhaustivity

  /// The virtual timeline the effects run on: the scope's ``TestScheduler``.
  ///
  /// ```swift
  /// #expect(tester.scheduler.elapsed == .milliseconds(300))
  /// ```
  public let scheduler: TestScheduler

  let reducer: (State, Action) -> Outcome<State, E>
  /// Performs the effects: the interactor's own runner, or one made of `perform` and
  /// `cancelInFlight`.
  let runner: EffectRunner<E, Action>
  /// The line that made the tester.
  let creation: CallSite

  /// Every step so far: each `send`, and each action an effect fed back.
  var steps: [Step] = []
  /// Every effect started so far, in order.
  var runs: [Run] = []
  /// Actions fed back and not yet taken by `receive`, in the order they arrived.
  var received: [Received] = []
  /// Actions a step reported as not received, and forgot: what it was and where, so that a later
  /// `receive` of one says it arrived early rather than that nothing will send it.
  var forgotten: [(action: Action, operation: String, site: CallSite)] = []
  /// The step whose effects `assertEffects` checks: the last `send` or `receive`.
  var lastStep: Int?
  /// Whether `finish()` was called; if not, `deinit` checks what it can.
  var isFinished = false

  /// Creates a tester of the feature made of `reducer` and `perform`, in `initialState`, on the
  /// scheduler of the virtual-time scope it is made in.
  ///
  /// ```swift
  /// let tester = FeatureTester(
  ///   initialState: SearchState(),
  ///   reducer: SearchReducer().reduce,
  ///   cancelInFlight: { effect in effect.isSearch ? "search" : nil }
  /// ) { effect, send in
  ///   await SearchInteractor.perform(effect, api: api, environment: .current, send: send)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - initialState: The state before the first step.
  ///   - reducer: The feature's decisions: the next state and the effects to perform.
  ///   - exhaustivity: ``Exhaustivity/on`` (the default) or ``Exhaustivity/off``.
  ///   - scheduler: The scope's scheduler. Leave it `nil` inside `@Test(.virtualTime)` or
  ///     `withVirtualTime { … }`, where it is ``TestScheduler/current``; pass it inside
  ///     `scheduler.withVirtualTime { … }`. Made outside any scope, the tester reports it here.
  ///   - cancelInFlight: The identity of an effect that supersedes a running one with the same
  ///     identity; `nil` (the default for every effect) for effects that run side by side. The
  ///     tester cancels with an `EffectRunner`, as an interactor that uses one does.
  ///   - perform: Performs one effect against the world, and feeds actions back with `send` — any
  ///     number of times, at any virtual time. The same function the interactor calls.
  ///   - fileID: The file that made the tester: issues about the tester as a whole (no scope, no
  ///     `finish()`) point at this call.
  ///   - filePath: The file's full path, which XCTest needs.
  ///   - line: The line that made the tester.
  ///   - column: The column that made the tester.
  public convenience init(
    initialState: State,
    reducer: @escaping (State, Action) -> Outcome<State, E>,
    exhaustivity: Exhaustivity = .on,
    scheduler: TestScheduler? = nil,
    cancelInFlight: @escaping (E) -> AnyHashable? = { _ in nil },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    perform: @escaping @MainActor (E, _ send: @escaping @MainActor (Action) -> Void) async -> Void
  ) {
    self.init(
      initialState: initialState,
      reducer: reducer,
      effects: EffectRunner(cancelInFlight: cancelInFlight, perform: perform),
      exhaustivity: exhaustivity,
      scheduler: scheduler,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Creates a tester of the feature made of `reducer` and the interactor's own `effects` runner,
  /// in `initialState`, on the scheduler of the virtual-time scope it is made in: the test performs
  /// the effects, and cancels those a new one supersedes, with the very code the app runs.
  ///
  /// ```swift
  /// let tester = FeatureTester(
  ///   initialState: LoginState(),
  ///   reducer: LoginReducer().reduce,
  ///   effects: LoginInteractor.effects(environment: environment)
  /// )
  /// ```
  ///
  /// Give it a runner of its own, made for the test, with no effect running: the tester accounts
  /// for the effects it starts, not for those the runner already had.
  ///
  /// - Parameters:
  ///   - initialState: The state before the first step.
  ///   - reducer: The feature's decisions: the next state and the effects to perform.
  ///   - effects: Performs each effect the reducer asks for — the interactor's `EffectRunner`.
  ///   - exhaustivity: ``Exhaustivity/on`` (the default) or ``Exhaustivity/off``.
  ///   - scheduler: The scope's scheduler. Leave it `nil` inside `@Test(.virtualTime)` or
  ///     `withVirtualTime { … }`, where it is ``TestScheduler/current``; pass it inside
  ///     `scheduler.withVirtualTime { … }`. Made outside any scope, the tester reports it here.
  ///   - fileID: The file that made the tester: issues about the tester as a whole (no scope, no
  ///     `finish()`) point at this call.
  ///   - filePath: The file's full path, which XCTest needs.
  ///   - line: The line that made the tester.
  ///   - column: The column that made the tester.
  public init(
    initialState: State,
    reducer: @escaping (State, Action) -> Outcome<State, E>,
    effects: EffectRunner<E, Action>,
    exhaustivity: Exhaustivity = .on,
    scheduler: TestScheduler? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let creation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    self.state = initialState
    self.reducer = reducer
    self.runner = effects
    self.exhaustivity = exhaustivity
    self.creation = creation
    if let scheduler {
      self.scheduler = scheduler
      if !scheduler.hasOpenScope {
        reportIssue(
          """
          FeatureTester was given a TestScheduler with no virtual-time scope open, so it cannot wait for \
          its effects. Make the tester inside scheduler.withVirtualTime { … }.
          """,
          kind: .wrongScheduler,
          at: creation
        )
      }
    } else if let scoped = TestScheduler.scoped {
      self.scheduler = scoped
    } else {
      self.scheduler = TestScheduler()
      reportIssue(
        """
        FeatureTester was made outside a virtual-time scope, so there is no test scheduler for its effects \
        to run on: it uses a new one that nothing else uses, and cannot wait for its effects. Mark the test \
        @Test(.virtualTime) (or its suite @Suite(.virtualTime)), or make the tester inside \
        withVirtualTime { scheduler in … }; inside scheduler.withVirtualTime { … }, pass scheduler: scheduler.
        """,
        kind: .wrongScheduler,
        at: creation
      )
    }
  }

  // The last safety net: a test that never called finish() is checked for what can be seen without
  // settling the scope. Not isolated, so that it runs at once, in the test's task, where the issue
  // can be recorded; it reads only `Sendable` state.
  deinit {
    guard !isFinished else { return }
    for run in runs where !run.hasEnded { run.task?.cancel() }
    guard exhaustivity == .on else { return }
    let steps = steps
    var items: [String] = []
    if let lastStep, !steps[lastStep].effectsChecked, !steps[lastStep].effects.isEmpty {
      let step = steps[lastStep]
      items += step.effects.map { "\(spelled($0)), asked for by \(step.name) and not asserted" }
    }
    items += received.map { "\(spelled($0.action)), received and not asserted" }
    items += runs.filter { !$0.hasEnded }.map { run in
      "\(spelled(run.effect)), asked for by \(steps[run.step].name), still running (cancelled now)"
    }
    guard !items.isEmpty else { return }
    reportIssue(
      """
      FeatureTester made here was released without finish(), leaving what the test did not account \
      for:\(renderList(items))
      End the test with await tester.finish(), which settles the effects and reports each of these at \
      the line that caused it.
      """,
      kind: .leftoverWork,
      at: creation
    )
  }
}
