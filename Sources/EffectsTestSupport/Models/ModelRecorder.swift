import Effects
import Foundation

/// Records every change of one model as steps: one for each main-actor job of the scope that
/// changed it, and one for what the test's own code changed before each call on the
/// ``ModelTester``. And the effects on the world through the test's environment, in order, read
/// at each call on the tester.
///
/// Effects are not steps: a request is sent off the main actor (`Network.send` is nonisolated),
/// so which main-actor job it lands after would depend on how two threads ran. Read at the
/// tester's calls, when the scope is settled, they are the same every run.
///
/// The scope tells it after each of its main-actor jobs (``MainJobObserver``), on the main thread,
/// where the model is read. Every stored `var` is behind `lock`: the end of the scope reads what
/// was recorded after ``ModelTester/finish(fileID:filePath:line:column:)`` from the test's task,
/// which may not be the main actor.
final class ModelRecorder: MainJobObserver, @unchecked Sendable {
  /// What made a step.
  enum Maker: Sendable {
    /// The test's own code: in its task's job, or just before a call on the tester.
    case test
    /// A task of the scope, with the stack that started it (empty when the scope did not start
    /// it, or cannot say).
    case task(origin: [UInt])
    /// A main-actor job that is not a task's.
    case job
  }

  /// One step: the model before and after one job.
  struct Step {
    var before: ModelState
    var after: ModelState
    var changes: [ModelState.Change]
    /// The scheduler's elapsed time when it was recorded.
    var instant: Duration
    var maker: Maker
  }

  /// The model, read on the main thread only (``record(by:)``); let go when the scope's operation
  /// has returned (``scopeEnding()``), so that it is released, and its `deinit` runs, inside the
  /// scope, where what the `deinit` starts is seen.
  private var model: AnyObject?
  private let doubles: ModelWorld.Doubles
  private let scheduler: TestScheduler
  private let lock = NSLock()
  private var last: ModelState
  private var lastWorld: ModelWorld
  private var pending: [Step] = []
  /// The effects read and not asserted yet.
  private var effects: [Effect] = []
  /// How many effects were read since the last `assertEffects`, asserted or not.
  private var readSinceAssert = 0
  /// Where the test finished; steps recorded after it are late, kept as their report's lines.
  private var finishedAt: CallSite?
  private var late: [String] = []
  /// How many late steps were not kept.
  private var lateDropped = 0

  /// The line that made the tester.
  private let creation: CallSite
  /// Whether changes not asserted are reported (the tester's exhaustivity is on).
  var isExhaustive: Bool {
    get { lock.withLock { exhaustive } }
    set { lock.withLock { exhaustive = newValue } }
  }
  private var exhaustive = true

  init(model: AnyObject, environment: Environment, scheduler: TestScheduler, creation: CallSite) {
    self.model = model
    self.creation = creation
    self.doubles = ModelWorld.Doubles(environment)
    self.scheduler = scheduler
    self.last = ModelState(of: model)
    self.lastWorld = ModelWorld(doubles)
  }

  /// The model as last recorded.
  var state: ModelState { lock.withLock { last } }

  /// Every value the model has held since the tester was made, in the steps not taken yet, and
  /// now: what tells apart two properties that hold the same value now (``KeyPathNames``).
  var history: [Any] {
    lock.withLock { pending.flatMap { $0.before.properties.map(\.value) } + last.properties.map(\.value) }
  }

  // MARK: Recording (main thread)

  func mainJobRan(task: UInt, isTest: Bool) {
    record(by: isTest ? .test : task == 0 ? .job : .task(origin: scheduler.originStack(ofTaskAt: task)))
  }

  /// Records what changed since the last record as a step made by `maker`; nothing when nothing
  /// changed. On the main thread: the model is read.
  func record(by maker: Maker) {
    guard let model = lock.withLock({ self.model }) else { return }
    let now = ModelState(of: model)
    lock.lock()
    let previous = last
    lock.unlock()
    let changes = now.changes(since: previous)
    guard !changes.isEmpty else { return }
    let step = Step(before: previous, after: now, changes: changes, instant: scheduler.elapsed, maker: maker)
    lock.lock()
    last = now
    guard finishedAt != nil else {
      pending.append(step)
      lock.unlock()
      return
    }
    // Kept as text, and only the first few: a model that goes on changing after the test must not
    // grow the report, or the memory it takes.
    guard exhaustive, late.count < OutputBudget.listEntries else {
      lateDropped += 1
      lock.unlock()
      return
    }
    lock.unlock()
    let text = ModelTesterWording.stepText(step)
    lock.withLock { late.append(text) }
  }

  /// Reads the world's effects since the last read, and keeps them to be asserted: not after
  /// the test finished, when an effect may be another model's, which its own tester states.
  func readTheWorld() {
    let world = ModelWorld(doubles)
    lock.lock()
    defer { lock.unlock() }
    let new = world.effects(since: lastWorld)
    lastWorld = world
    if finishedAt == nil {
      effects += new
      readSinceAssert += new.count
    }
  }

  /// For `assertEffects`: the effects read and not asserted yet, taken, and whether any effect was
  /// read since the last `assertEffects` at all (reported or skipped since, maybe).
  func takeEffectsToAssert() -> (effects: [Effect], anyRead: Bool) {
    lock.withLock {
      defer {
        effects = []
        readSinceAssert = 0
      }
      return (effects, readSinceAssert > 0)
    }
  }

  /// The effects read and not asserted yet, taken.
  func takeEffects() -> [Effect] {
    lock.withLock {
      defer { effects = [] }
      return effects
    }
  }

  // MARK: Taking steps

  /// Every step not taken yet, taken.
  func takeAll() -> [Step] {
    lock.withLock {
      defer { pending = [] }
      return pending
    }
  }

  /// The steps not taken yet, left where they are.
  var untaken: [Step] { lock.withLock { pending } }

  /// Takes the first `count` steps not taken yet.
  func take(_ count: Int) {
    lock.withLock { pending.removeFirst(min(count, pending.count)) }
  }

  /// From now on, what changes is late: the test has finished.
  func finish(at site: CallSite) {
    lock.withLock { finishedAt = site }
  }

  /// At the end of the scope: reports what changed after the test finished, at `finish()`; or,
  /// when the test never finished, the changes it did not assert, at the line that made the tester.
  /// When the scope's operation has returned and its tasks have settled: records what the test's
  /// own code changed last, in the job that ends the scope (on the main thread, where the model
  /// may be read; a test off the main actor has no such job), then lets the model go.
  func scopeEnding() {
    if MainQueue.isCurrent { record(by: .test) }
    lock.withLock { model = nil }
  }

  func scopeEnded() {
    readTheWorld()
    lock.lock()
    let (finishedAt, late, exhaustive) = (self.finishedAt, self.late, self.exhaustive)
    let dropped = lateDropped
    let unasserted = finishedAt == nil && exhaustive ? pending : []
    let effects = finishedAt == nil && exhaustive ? self.effects : []
    self.late = []
    pending = []
    self.effects = []
    lock.unlock()
    if let finishedAt, !late.isEmpty {
      let more = dropped > 0 ? ["… and \(dropped) more"] : []
      reportIssue(ModelTesterWording.changedAfterFinish(late + more), kind: .leftoverWork, at: finishedAt)
    } else if !unasserted.isEmpty || !effects.isEmpty {
      reportIssue(ModelTesterWording.endedWithoutFinish(unasserted, effects), kind: .leftoverWork, at: creation)
    }
  }
}
