import Effects

extension FeatureTester {
  /// One step of the feature: an action sent by the test, or fed back by an effect.
  struct Step: Sendable {
    /// The step as the test spells it: `send(.load)`, `receive(.fetched(User(…)))`.
    var name: String
    /// The line of the test's `send`, or of the `receive` that took the action; nil for an action
    /// fed back that no `receive` has taken.
    var callSite: CallSite?
    /// The effects the reducer asked for.
    var effects: [E]
    /// Whether the test asserted the effects (or need not: none, or a mismatched `receive`).
    var effectsChecked: Bool
    /// For an action fed back: the index in ``FeatureTester/runs`` of the effect that sent it.
    var fedBy: Int?
  }

  /// One effect being performed, or performed, in a task of its own.
  struct Run: Sendable {
    var effect: E
    /// The index in ``FeatureTester/steps`` of the step that asked for it.
    var step: Int
    var task: Task<Void, Never>?
    var hasEnded = false
  }

  /// An action fed back by an effect, reduced when it arrived, waiting for `receive`.
  struct Received: Sendable {
    var action: Action
    /// The state before and after the reducer took it.
    var before: State
    var after: State
    /// The index in ``FeatureTester/steps`` of its step.
    var step: Int
  }

  /// The line to report a problem of `step` at: its own, or — for an action fed back and never
  /// received — that of the step whose effect fed it back.
  func site(of step: Int) -> CallSite? {
    var index: Int? = step
    while let current = index {
      if let callSite = steps[current].callSite { return callSite }
      index = steps[current].fedBy.map { runs[$0].step }
    }
    return nil
  }

  /// `effect` and the step that asked for it: `.fetchProfile(userID: "42"), asked for by send(.load)`.
  func text(ofRun index: Int) -> String {
    "\(spelled(runs[index].effect)), asked for by \(steps[runs[index].step].name)"
  }

  /// Starts each effect through ``runner`` — in a task of its own, inside the scope (the caller's
  /// task is in it), cancelling first any running effect it supersedes, as the app's runner does.
  func start(_ effects: [E], of step: Int) {
    for effect in effects {
      let index = runs.count
      runs.append(Run(effect: effect, step: step))
      runs[index].task = runner.start(
        effect,
        send: { [weak self] action in self?.feed(action, from: index) },
        onEnd: { [weak self] in self?.end(run: index) }
      )
    }
  }

  /// An action fed back by the effect `run`: reduced at once, as the interactor would, and queued
  /// for `receive`; its effects start at once. (The runner drops what a cancelled effect sends.)
  func feed(_ action: Action, from run: Int) {
    let (before, step) = reduce(action, as: "receive(\(spelled(action)))", at: nil, fedBy: run)
    received.append(Received(action: action, before: before, after: state, step: step))
    start(steps[step].effects, of: step)
  }

  /// Runs the reducer on `action` and records the step it makes, named `name`: the state it
  /// starts from, and the step's index.
  func reduce(_ action: Action, as name: String, at site: CallSite?, fedBy run: Int?) -> (before: State, step: Int) {
    let before = state
    let outcome = reducer(before, action)
    state = outcome.value
    steps.append(
      Step(
        name: name,
        callSite: site,
        effects: outcome.effects,
        effectsChecked: outcome.effects.isEmpty,
        fedBy: run
      )
    )
    return (before, steps.count - 1)
  }

  func end(run index: Int) {
    runs[index].hasEnded = true
  }
}
