import Effects
public import Observation

/// Tests an `@Observable` model exhaustively, on virtual time: every change the model makes is a
/// step the test must state — the ones it made in between, too — and so is every effect it has on
/// the world through the environment. The model needs no change: no protocol, no macro of this
/// library, no state struct.
///
/// ```swift
/// @MainActor @Test(.virtualTime) func refreshingShowsTheItems() async {
///   let network = Environment.current.stubNetwork
///   network.stub(.get("https://api.example.com/items"), .json(#"["a","b"]"#), after: .seconds(1))
///   let model = FeedModel()
///   let tester = ModelTester(model)
///
///   model.refreshTapped()                            // starts a task
///   await tester.assert { $0.isLoading = true }      // what the task showed first
///   tester.assertEffects([.send(.get("https://api.example.com/items"))])
///   await tester.advance(by: .seconds(1))            // the network answers
///   await tester.assert {
///     $0.items = ["a", "b"]
///     $0.isLoading = false
///   }
///   await tester.finish()                            // nothing left unstated
/// }
/// ```
///
/// ## Steps
/// The tester reads the model's observed properties after each main-actor job of the virtual-time
/// scope. A job that changed them is one step, kept with its virtual instant and the task that
/// made it: a loading flag that went `true` in one job and back to `false` in a later one is two
/// steps, even inside one `advance`. What the test's own code changed before a call on the
/// tester is a step too. A value set and set back within one job is no step: no screen could have
/// shown it.
///
/// - ``assert(_:fileID:filePath:line:column:)`` takes the next step and checks it: the model
///   before the step, changed by the closure, must be the model after it. A property changed and
///   not stated, one stated other than it changed, and one stated that did not change are each
///   reported, with the value before and after, the instant, and the task that made the change.
/// - ``assertEffects(_:fileID:filePath:line:column:)`` checks what the model did to the world
///   since the last time: requests sent, events tracked, lines printed, defaults and files
///   written, as `Effect` values. Effects are not steps: a request goes out off the main actor,
///   between the model's jobs.
/// - ``advance(by:fileID:filePath:line:column:)`` and ``finish(fileID:filePath:line:column:)``
///   report the steps and effects not asserted; ``skipChanges(strict:fileID:filePath:line:column:)``
///   takes them without checking.
/// - An `assert` that finds a different change looks ahead: a later step it matches, or the next
///   steps taken together, is said in one report, and the test goes on in step.
///
/// Set ``exhaustivity`` to ``Exhaustivity/off`` for a large model: `assert` then checks only the
/// properties it states, against the model as it is now.
///
/// ## What it reads
/// Observed properties of any type: plain values (numbers, strings, `Data`, collections and
/// structs of them) compared by `==`, any other value by its whole structure as it was at each
/// step (an object it holds by identity and by its properties then); nested observable children
/// (`$0.detail?.isSaving = true`) by identity and property by property, 16 levels down.
/// Properties marked `@ObservationIgnored` are left alone.
/// The world is read from the environment's in-memory doubles (`Environment.test()` has them).
///
/// Make it inside a virtual-time scope (`@Test(.virtualTime)`, `withVirtualTime { … }`), on the
/// main actor, where the model lives.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
public final class ModelTester<Model: AnyObject & Observable> {
  /// The model under test.
  ///
  /// ```swift
  /// tester.model.refreshTapped()
  /// ```
  public let model: Model

  /// Whether every change must be stated (``Exhaustivity/on``, the default), or only what the
  /// test states is checked (``Exhaustivity/off``). It may change between steps.
  ///
  /// ```swift
  /// tester.exhaustivity = .off  // from here on, assert checks only what it states
  /// ```
  public var exhaustivity: Exhaustivity {
    didSet { recorder.isExhaustive = exhaustivity == .on }
  }

  /// The virtual timeline the model's tasks run on: the scope's ``TestScheduler``.
  ///
  /// ```swift
  /// #expect(tester.scheduler.elapsed == .seconds(1))
  /// ```
  public let scheduler: TestScheduler

  let recorder: ModelRecorder
  /// The line that made the tester.
  let creation: CallSite
  /// Where the test called `finish()`: after it, every call on the tester is a misuse.
  var finishedAt: CallSite?

  /// How much of what the model does a ``ModelTester`` requires the test to state.
  ///
  /// ```swift
  /// let tester = ModelTester(model, exhaustivity: .off)
  /// model.refreshTapped()
  /// await tester.advance(by: .seconds(1))
  /// await tester.assert { $0.items = ["a", "b"] }  // the rest of the model is not checked
  /// ```
  public enum Exhaustivity: Hashable, Sendable {
    /// Every step must be stated, one `assert` each, whole: every property it changed and every
    /// effect it had. The default.
    case on
    /// `assert` takes every step so far, and checks only the properties it states against the
    /// model now; effects need no assertion, and nothing is reported as not stated.
    case off
  }

  /// Creates a tester of `model`, on the scheduler of the virtual-time scope it is made in.
  ///
  /// ```swift
  /// let tester = ModelTester(FeedModel())
  /// ```
  ///
  /// - Parameters:
  ///   - model: The model, made in the test's environment: a model that keeps the environment it
  ///     was made with must be made inside the test.
  ///   - exhaustivity: ``Exhaustivity/on`` (the default) or ``Exhaustivity/off``.
  ///   - scheduler: The scope's scheduler. Leave it `nil` inside any virtual-time scope, where it
  ///     is ``TestScheduler/current``; pass it only where that is not inherited (a detached task).
  ///   - fileID: The file that made the tester: issues about the tester as a whole point here.
  ///   - filePath: The file's full path, which XCTest needs.
  ///   - line: The line that made the tester.
  ///   - column: The column that made the tester.
  public init(
    _ model: Model,
    exhaustivity: Exhaustivity = .on,
    scheduler: TestScheduler? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let creation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    self.model = model
    self.exhaustivity = exhaustivity
    self.creation = creation
    let environment = Environment.current
    let resolved = scheduler ?? TestScheduler.scoped
    self.scheduler = resolved ?? TestScheduler()
    recorder = ModelRecorder(model: model, environment: environment, scheduler: self.scheduler, creation: creation)
    recorder.isExhaustive = exhaustivity == .on
    if ModelState.observedProperties(of: model) == nil {
      reportIssue(ModelTesterWording.notObservable(Model.self), kind: .invalidArgument, at: creation)
    }
    if let outside = ModelTesterWording.environmentOutsideTheTest(of: model) {
      reportIssue(outside, kind: .wrongScheduler, at: creation)
    }
    guard let resolved else {
      reportIssue(ModelTesterWording.noScope, kind: .wrongScheduler, at: creation)
      return
    }
    guard resolved.observeMainJobs(recorder) else {
      reportIssue(ModelTesterWording.scopeNotOpen(given: scheduler != nil), kind: .wrongScheduler, at: creation)
      return
    }
    resolved.whenScopeEnds { [recorder] _ in
      recorder.scopeEnding()
      return false
    }
    resolved.atScopeEnd { [recorder] in
      recorder.scopeEnding()  // where the scope expects leftovers, it asks no one before
      recorder.scopeEnded()
    }
  }
}
