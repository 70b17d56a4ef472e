public import Effects

/// The profile screen's interactor: it holds the screen's ``ProfileState``, decides every change
/// with ``ProfileReducer``, and performs the reducer's effects — the only part that touches the
/// world, through the ``ProfileService`` and the environment's scheduler.
///
/// A view controller sends commands and renders states:
///
/// ```swift
/// final class ProfileViewController: UIViewController {
///   let interactor = ProfileInteractor(userID: "42", service: HTTPProfileService())
///
///   override func viewDidLoad() {
///     super.viewDidLoad()
///     interactor.onStateChange = { [weak self] state in self?.render(state) }
///     interactor.send(.load)
///   }
///
///   @objc func retryTapped() { interactor.send(.retry) }
/// }
/// ```
///
/// Every effect is performed by ``perform(_:service:environment:send:)``, which a test hands to a
/// `FeatureTester` with the reducer: the feature is then tested step by step, exhaustively, on the
/// code the app runs (see `ProfileInteractorTests`).
///
/// Time goes through `environment.scheduler` (the retry backoff is a `sleep(for:)` on it), so a
/// test can also drive the interactor itself, giving it a `TestScheduler` and moving time by hand:
///
/// ```swift
/// @MainActor @Test func aRetryWaitsForTheBackoff() async {
///   let scheduler = TestScheduler()
///   await scheduler.withVirtualTime {
///     let service = ProfileServiceDouble(scheduler: scheduler)  // a `Spy` that answers in virtual time
///     service.fetches.stub(script: [.failure(offline), .success(blob)])
///     let interactor = ProfileInteractor(userID: "42", service: service, environment: .test(scheduler: scheduler))
///
///     interactor.send(.load)
///     await scheduler.advance()
///     #expect(interactor.state == .failed(offline))
///
///     interactor.send(.retry)
///     await scheduler.advance(by: .milliseconds(1999))
///     #expect(interactor.state == .loading)
///     service.fetches.assertCalls(["42"])  // not asked again yet
///
///     await scheduler.advance(by: .milliseconds(1))
///     #expect(interactor.state == .loaded(blob))
///     service.fetches.assertCalls(["42", "42"])
///     scheduler.assertNoPendingWork()
///   }
/// }
/// ```
@MainActor
public final class ProfileInteractor {
  /// What the screen shows now.
  public private(set) var state: ProfileState = .initialized

  /// Called with each new state, after ``state`` has changed (not for commands that change
  /// nothing).
  public var onStateChange: ((ProfileState) -> Void)?

  private let reducer: ProfileReducer
  private let service: any ProfileService
  private let environment: Environment

  /// Creates the interactor of `userID`'s profile, in state ``ProfileState/initialized``.
  ///
  /// - Parameters:
  ///   - userID: Whose profile to show.
  ///   - service: Where to fetch it from.
  ///   - retryBackoff: How long a retry waits before fetching again.
  ///   - environment: Where time comes from: `environment.scheduler` runs the backoff.
  public init(
    userID: User.ID,
    service: any ProfileService,
    retryBackoff: Duration = .seconds(2),
    environment: Environment = .current
  ) {
    self.reducer = ProfileReducer(userID: userID, retryBackoff: retryBackoff)
    self.service = service
    self.environment = environment
  }

  /// Handles `command`: the reducer decides the next state and the effects, then the interactor
  /// publishes the state and performs the effects, each in a task of its own.
  public func send(_ command: ProfileCommand) {
    let outcome = reducer.reduce(state, command)
    if outcome.value != state {
      state = outcome.value
      onStateChange?(state)
    }
    for effect in outcome.effects {
      Task { await Self.perform(effect, service: service, environment: environment, send: send) }
    }
  }

  /// Performs one effect against the world — `service`, and `environment.scheduler` for a delay —
  /// and feeds its result back with `send`, as a command.
  ///
  /// The interactor runs every effect through it; a test runs the same function through a
  /// `FeatureTester`, so what the test checks is what the app does:
  ///
  /// ```swift
  /// let tester = FeatureTester(initialState: .initialized, reducer: ProfileReducer(userID: "42").reduce) {
  ///   effect, send in
  ///   await ProfileInteractor.perform(effect, service: service, environment: .current, send: send)
  /// }
  /// ```
  ///
  /// A cancelled fetch sends nothing: nobody is waiting for its answer.
  public static func perform(
    _ effect: ProfileEffect,
    service: any ProfileService,
    environment: Environment,
    send: @MainActor (ProfileCommand) -> Void
  ) async {
    switch effect {
    case .fetchProfile(let userID, let delay):
      do {
        // A zero-delay sleep would still wait for the scheduler's next turn: fetch at once instead.
        if delay > .zero {
          try await environment.continuousClock.sleep(for: delay)
        }
        let user = try await service.fetchUser(id: userID)
        send(.fetched(user))
      } catch is CancellationError {
        // Nobody is waiting for the answer any more.
      } catch {
        send(.fetchFailed(ProfileError(error)))
      }
    }
  }
}
