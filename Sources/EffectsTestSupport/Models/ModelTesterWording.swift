import Effects

/// Every text a ``ModelTester`` reports. Each list is bounded (``OutputBudget``), each value
/// clipped (``ReportBudget``), and each report as a whole.
enum ModelTesterWording {
  // MARK: Making the tester

  static func notObservable(_ model: Any.Type) -> String {
    """
    ModelTester cannot read \(model): it has no property the @Observable macro observes, so no change \
    of it can be recorded. Mark the class @Observable, and give the tester the model itself.
    """
  }

  static let noScope = """
    ModelTester was made outside a virtual-time scope, so it cannot see the jobs that change the model: \
    it records only what changed before each call on it, and cannot wait for the model's tasks. Mark the \
    test @Test(.virtualTime) (or its suite @Suite(.virtualTime)), or make the tester inside \
    withVirtualTime { scheduler in … }.
    """

  static func scopeNotOpen(given: Bool) -> String {
    let what = given ? "was given a TestScheduler with no virtual-time scope open" : "found no open virtual-time scope"
    return """
      ModelTester \(what), so it cannot see the jobs that change the model: it records only what changed \
      before each call on it. Make the tester inside the scope, and pass no scheduler: it is the scope's.
      """
  }

  /// Nil unless `model` keeps an environment that is not a test's: it was made outside the test.
  static func environmentOutsideTheTest(of model: AnyObject) -> String? {
    guard Environment.current.testContext != nil else { return nil }
    var mirror: Mirror? = Mirror(reflecting: model)
    while let current = mirror {
      for child in current.children {
        guard let environment = child.value as? Environment, environment.testContext == nil else { continue }
        let name = child.label.map { $0.hasPrefix("_") && !$0.hasPrefix("_$") ? String($0.dropFirst()) : $0 } ?? "?"
        return """
          ModelTester was given a model whose environment (its property \(name)) is the live one, not the \
          test's: the model was made outside the test, so it reads the real world, and its tasks do not run \
          on the test's virtual time. Make the model inside the test, where Environment.current is the test's.
          """
      }
      mirror = current.superclassMirror
    }
    return nil
  }

  // MARK: A step

  /// Who made `step`: `by the test`, `by the task started at FeedModel.swift:31`.
  static func maker(of step: ModelRecorder.Step) -> String {
    switch step.maker {
    case .test:
      return "by the test"
    case .job:
      return "by a main-actor job of the scope"
    case .task(let origin):
      guard let site = ReadSite.firstFrameOfCodeUnderTest(in: origin) else { return "by a task of the scope" }
      return "by the task started at \(site)"
    }
  }

  /// `isLoading: false → true`.
  static func change(_ change: ModelState.Change) -> String {
    let (old, new) = ModelState.texts(change.old, change.new)
    return "\(change.path): \(old) → \(new)"
  }

  /// A step as a report lists it: where and by whom, then one line per change and per effect.
  static func stepText(_ step: ModelRecorder.Step) -> String {
    let slots = replacedChildren(in: step)
    let lines = step.changes.filter { !isUnder($0.path, slots) }.map(change)
    return "at \(step.instant.literal), \(maker(of: step)):" + indented(lines, by: "    ")
  }

  /// `lines`, each on a line of its own after `indent`, at most ``OutputBudget/changedLines``.
  static func indented(_ lines: [String], by indent: String) -> String {
    let shown = lines.prefix(OutputBudget.changedLines).map { "\n\(indent)\($0)" }.joined()
    let more = lines.count - OutputBudget.changedLines
    return more > 0 ? shown + "\n\(indent)… and \(more) more" : shown
  }

  /// The steps, each with its lines, at most ``OutputBudget/listEntries``.
  static func steps(_ texts: [String]) -> String {
    let shown = texts.prefix(OutputBudget.listEntries).map { "\n  \($0)" }.joined()
    let more = texts.count - OutputBudget.listEntries
    return more > 0 ? shown + "\n  … and \(more) more changes" : shown
  }

  // MARK: assert

  /// The report of a step other than `statements` say (nil statements: no change expected); nil
  /// when it is as they say.
  static func mismatch(of step: ModelRecorder.Step, statements: ModelStatements?) -> String? {
    var lines: [String] = []
    var paths = step.after.properties.map(\.path)
    for (path, _) in statements?.stated ?? [] where step.after[path] == nil { paths.append(path) }
    let slots = replacedChildren(in: step)
    // A child that came, went or was replaced is shown by its own line; its properties are
    // checked one by one only where the test states them.
    for path in paths where !isUnder(path, slots) || statements?.statedValue(at: path) != nil {
      let old = step.before.property(at: path)
      let new = step.after.property(at: path)
      let changed = !same(old, new)
      guard let stated = statements?.statedValue(at: path) else {
        if changed { lines.append("\(path): \(texts(old, new)), not stated") }
        continue
      }
      if matches(stated, new) {
        if !changed {
          lines.append("\(path): stated \(ModelState.text(stated)), which it was already; it did not change")
        }
      } else if changed {
        lines.append("\(path): \(texts(old, new)), stated \(ModelState.text(stated))\(anotherInstance(stated, new))")
      } else {
        lines.append("\(path): stated \(ModelState.text(stated)), but it did not change from \(text(old))")
      }
    }
    let problems = statements?.problems ?? []
    guard !lines.isEmpty || !problems.isEmpty else { return nil }
    let what =
      statements == nil ? "expected no change, and the model changed" : "found the model changed other than stated"
    var report = "ModelTester.assert(_:) \(what) at \(step.instant.literal), \(maker(of: step)):"
    report += indented(lines, by: "  ")
    report += problems.map { "\n\($0)" }.joined()
    report += """

      Describe each change the model made in this step in assert { $0 … }, or fix the model.
      """
    return ReportBudget.bounded(report)
  }

  /// The report of an `assert` that stated something when the model had not changed.
  static func noChange(_ statements: ModelStatements, state: ModelState, at instant: Duration) -> String {
    let lines = statements.stated.map { path, value in
      "\(path): stated \(ModelState.text(value)); it is \(text(state.property(at: path)))"
    }
    let report = """
      ModelTester.assert(_:) expected a change, and the model did not change by \(instant.literal): every \
      change recorded was asserted already.\(indented(lines, by: "  "))\(statements.problems.map { "\n\($0)" }.joined())
      Remove this assert, or advance time to the change: await tester.advance(by: …).
      """
    return ReportBudget.bounded(report)
  }

  /// The report of an `assert` with ``ModelTester/Exhaustivity/off`` whose statements the model
  /// now differs from; nil when none.
  static func partialMismatch(_ statements: ModelStatements, now: ModelState) -> String? {
    let lines = statements.stated.compactMap { path, value -> String? in
      matches(value, now.property(at: path))
        ? nil : "\(path): is \(text(now.property(at: path))), stated \(ModelState.text(value))"
    }
    guard !lines.isEmpty || !statements.problems.isEmpty else { return nil }
    return ReportBudget.bounded(
      """
      ModelTester.assert(_:) found the model other than stated:\(indented(lines, by: "  "))\
      \(statements.problems.map { "\n\($0)" }.joined())
      With exhaustivity .off, assert checks what it states against the model now: fix what it states, or the model.
      """
    )
  }

  static func notObserved(_ root: Any.Type, _ value: Any.Type) -> String {
    """
    A key path of type KeyPath<\(root), \(value)> names no observed stored property of \(root) (a computed \
    property, or one marked @ObservationIgnored), so it cannot be stated: state the stored properties it \
    is made from.
    """
  }

  static func ambiguous(_ root: Any.Type, _ value: Any.Type, names: [String]) -> String {
    """
    A key path of type KeyPath<\(root), \(value)> may name any of \(names.joined(separator: ", ")): they \
    hold the same value, and no other value of their type is known to tell them apart. State it in an \
    assert where their values differ.
    """
  }

  static func probeChanged(_ root: Any.Type, _ value: Any.Type, name: String, changed: [String]) -> String {
    """
    To tell which property a key path of type KeyPath<\(root), \(value)> names (\(name)), the tester wrote it \
    and wrote it back, and that changed \(changed.joined(separator: ", ")) (a didSet): the next change \
    recorded holds it.
    """
  }

  // MARK: Effects

  static func otherEffects(_ diff: String, noneRead: Bool) -> String {
    let hint =
      noneRead
      ? """

      No effect was read since the last assertEffects: it does not wait for the model's tasks. Call it \
      after await tester.assert { … } or await tester.advance(by:).
      """ : ""
    return ReportBudget.bounded("ModelTester.assertEffects(_:) found other effects: \(diff)\(hint)")
  }

  static func unassertedEffects(_ effects: [Effect], by operation: String) -> String {
    let one = effects.count == 1
    return ReportBudget.bounded(
      """
      ModelTester.\(operation) found \(one ? "an effect" : "\(effects.count) effects") on the world the \
      test did not assert:\(renderList(effects) { "\($0)" })
      Assert \(one ? "it" : "them") with tester.assertEffects([…]) before this line.
      """
    )
  }

  /// The report of an `assert` whose statements are those of a later step: the steps before it.
  static func skippedBefore(_ steps: [ModelRecorder.Step]) -> String {
    let one = steps.count == 1
    return ReportBudget.bounded(
      """
      ModelTester.assert(_:) found the change stated, after \(one ? "a change" : "\(steps.count) changes") of \
      the model the test did not state:\(self.steps(steps.map(stepText)))
      State each change with an await tester.assert { $0 … } of its own, in order, or take \
      \(one ? "it" : "them") unchecked with await tester.skipChanges() before this line.
      """
    )
  }

  /// The report of an `assert` whose statements are those of several steps taken together.
  static func madeInSteps(_ steps: [ModelRecorder.Step]) -> String {
    ReportBudget.bounded(
      """
      ModelTester.assert(_:) found the change stated made in \(steps.count) steps, each of which a screen \
      could show:\(self.steps(steps.map(stepText)))
      State each with an await tester.assert { $0 … } of its own, in order, or fix the model.
      """
    )
  }

  // MARK: Changes not asserted

  static func unasserted(_ steps: [ModelRecorder.Step], by operation: String) -> String {
    let one = steps.count == 1
    return ReportBudget.bounded(
      """
      ModelTester.\(operation) found \(one ? "a change" : "\(steps.count) changes") of the model the test did \
      not assert:\(self.steps(steps.map(stepText)))
      Assert \(one ? "it" : "each") with await tester.assert { $0 … } before this line, or take \
      \(one ? "it" : "them") unchecked with await tester.skipChanges().
      """
    )
  }

  static let nothingToSkip = """
    ModelTester.skipChanges() found no change and no effect to skip. Remove the call, or pass strict: false where \
    there may be none.
    """

  static func closureWrote(_ paths: [String]) -> String {
    ReportBudget.bounded(
      """
      ModelTester.assert(_:)'s closure changed the model itself: \(paths.prefix(OutputBudget.listEntries).joined(separator: ", ")). \
      A statement reached an object the model holds in a value ($0.rows[0].title = …) and wrote to it. State \
      such a change as the whole value of the property that holds it.
      """
    )
  }

  static func afterFinish(_ call: String, finishedAt: CallSite) -> String {
    """
    ModelTester.\(call) was called after finish() at \(FailureLocation(finishedAt)), which ended the test of \
    the model: the call does nothing. Call finish() last.
    """
  }

  static func changedAfterFinish(_ steps: [String]) -> String {
    ReportBudget.bounded(
      """
      ModelTester: the model changed after finish(), when the test had ended:\(self.steps(steps))
      Let the work that changes the model end before finish(), or cancel it there.
      """
    )
  }

  static func endedWithoutFinish(_ steps: [ModelRecorder.Step], _ effects: [Effect]) -> String {
    var left: [String] = []
    if !steps.isEmpty {
      left.append(steps.count == 1 ? "a change of the model" : "\(steps.count) changes of the model")
    }
    if !effects.isEmpty { left.append(effects.count == 1 ? "an effect" : "\(effects.count) effects") }
    let effectLines =
      effects.isEmpty
      ? "" : "\n  effects:" + renderList(effects) { "\($0)" }.replacingOccurrences(of: "\n  ", with: "\n    ")
    return ReportBudget.bounded(
      """
      ModelTester made here was not finished: the test ended without await tester.finish(), leaving \
      \(left.joined(separator: " and ")) it did not assert:\(self.steps(steps.map(stepText)))\(effectLines)
      End the test with await tester.finish(), which settles the model's tasks and reports what is left.
      """
    )
  }

  // MARK: Helpers

  /// The paths of the nested children `step` replaced (or added, or removed): their properties
  /// are shown by the child's own line, not one by one.
  private static func replacedChildren(in step: ModelRecorder.Step) -> [String] {
    step.changes.compactMap { change in
      let held = [change.old, change.new].compactMap { $0 }
      return held.contains(where: \.isChild) ? change.path : nil
    }
  }

  /// Whether `path` is a property of a child at one of `slots`.
  private static func isUnder(_ path: String, _ slots: [String]) -> Bool {
    slots.contains { path.hasPrefix($0 + ".") || path.hasPrefix($0 + "?.") }
  }

  /// Whether two readings of a property are the same: by the structures read, where kept.
  private static func same(_ a: ModelState.Property?, _ b: ModelState.Property?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return ModelState.same(a, b)
  }

  /// Whether a value stated is what the property held: by its structure, where the property's
  /// was kept.
  private static func matches(_ stated: Any, _ property: ModelState.Property?) -> Bool {
    guard let property else { return false }
    if !property.isChild, let deep = property.deep { return DeepValue(of: stated) == deep }
    return ModelState.same(stated, property.value)
  }

  /// What tells a child stated apart from the one held when both read the same: it is another
  /// object.
  private static func anotherInstance(_ stated: Any, _ held: ModelState.Property?) -> String {
    guard let held, let child = ModelState.observableChild(in: held.value)?.object,
      let other = ModelState.observableChild(in: stated)?.object, child !== other,
      DeepValue(of: stated).text() == held.text()
    else { return "" }
    return """
      , another instance: a child is compared by identity; state the one the model holds (keep it in a \
      variable)
      """
  }

  /// `old → new`, each as its text.
  private static func texts(_ old: ModelState.Property?, _ new: ModelState.Property?) -> String {
    let (a, b) = ModelState.texts(old, new)
    return "\(a) → \(b)"
  }

  private static func text(_ property: ModelState.Property?) -> String {
    ModelState.text(property)
  }
}
