import Effects
import Foundation

/// The one door to the Swift runtime's private side: every function found by name, hook
/// variable, memory offset, bitcast and mangled name that test support relies on. Nothing else in
/// the package reads runtime memory or binds a runtime symbol; `Effects`, which ships inside apps,
/// uses none of them (`.ci/public-api` checks it).
///
/// Checked on: Swift 6.1, 6.2 and 6.3 runtimes on Linux x86_64 (6.3.1 is the one CI runs here).
/// Apple's runtimes of the same versions (macOS 15.4 to 26.4) are built from the same sources, with
/// the differences noted below; the macOS job of `.github/workflows/ci.yml` is new, and has not yet
/// run this table there.
///
/// | Assumption | What | Depends on it | When it is missing or wrong |
/// | --- | --- | --- | --- |
/// | ``Assumption/functions`` | `swift_task_getCurrent`, `swift_task_getJobTaskId`, `swift_retain`, `swift_release` (required); `swift_task_cancel`, `swift_task_isCancelled` (for task status); found by name, typed here. Checked: each is exported, and `swift_task_getCurrent` answers the task `withUnsafeCurrentTask` gives | which task is running, and whose it is (`ScopeTasks`) | the scope does not open, says so at its line, and runs its operation without virtual time |
/// | ``Assumption/hooks`` | `swift_task_enqueueGlobal_hook`, `swift_task_getMainExecutor_hook`, `swift_task_enqueueGlobalWithDelay_hook`, `swift_task_enqueueGlobalWithDeadline_hook`: variables of `libswift_Concurrency`, typed as its `ConcurrencyHooks.def` declares them. Checked: each is exported (their signatures cannot be checked without calling them) | every job of a scope reaching the scope (`RuntimeHooks`) | missing, or held by another library: the scope does not open, and says so |
/// | ``Assumption/jobFlags`` | a job's flags are the 32 bits after its heap header and two scheduler words (offset 32); kind 0 in the low byte is a task; bit 24 marks a child task. Checked: the running task's kind (bit 24 is not) | telling tasks from other jobs, and unstructured tasks from children | the scope does not open, and says so |
/// | ``Assumption/taskStatus`` | a task's status flags at offset 96 or 80, found on the running task: its priority in the low byte (at least the job's, which escalation may have raised), cancelled 0x100, complete 0x2000, dependency 0x4000; running 0x800 and enqueued 0x1000 only where the runtime does not escalate priority (Linux; on Apple's runtimes the running state is kept apart, so a task running there is not told from one waiting, and only a dependency is read) | the end of a scope: tasks that did not end, and tasks that ignore cancellation | said once per process; the end of a scope no longer checks tasks (work left on the scheduler still is) |
/// | ``Assumption/asyncContexts`` | a suspended task's resume context at word 8 and resume task at word 7 (a function in a loaded image, checked before anything is followed); an async context's parent and resume function in its first two words; a continuation is its task's address. Checked inside a continuation, once the runtime has set them | the line a sleeping or suspended task waits at, in reports | said once per process; reports name the scope's line instead |
/// | ``Assumption/taskLocalStorage`` | `swift_task_localValueGet` answers the address of a bound value, keyed by the `TaskLocal` object. Checked: unbound, bound and nested, against `get()` | reading the scope on every hop to the main actor, without `get()`'s generic copy | said once per process; the door reads with `TaskLocal.get()` instead (about 100 instructions more a hop) |
/// | ``Assumption/durationWords`` | `Duration` is two words of attoseconds, low then high. Checked against `components` | keys of the timer queue (`TimerQueue`) | said once per process; keys come from `Duration.components` instead: slower, as exact for the deadlines the queue holds (within ±`Int64.max` seconds, where `components` is defined) |
/// | ``Assumption/demangler`` | `swift_demangle`, exported by the standard library. Checked: `$sSiD` is `Swift.Int` | reading a stack: a read in an extension an app adds to this library's types (placed at the app's line), and a read in XCTest's `setUp()` (said to be in `setUp()`) | said once per process; such a read is placed at the next frame of the code under test, and a read in `setUp()` is not told apart |
///
/// Not checked, and why: `$ss18SchedulingExecutorMp`, the mangled name of `SchedulingExecutor`,
/// tells a build made with a Swift compiler older than 6.3 whether `Task.sleep` bypasses the delay
/// hooks (then it warns that real sleeps go unseen); a build with 6.3 or later knows the type and
/// never looks. `Unmanaged._withUnsafeGuaranteedRef` (reading a scope from a hook without retaining
/// it) and `@_spi(ExperimentalScheduling) import _Concurrency` (in `RealSleeps.swift`, since an
/// import is per file) are decided when the package builds. The bitcasts of `UnownedJob` and
/// `UnsafeContinuation` to the task's address are checked at run time by
/// ``Assumption/functions`` and ``Assumption/asyncContexts``. `__tsan_init`, looked up to know
/// whether the thread sanitizer runs, only lengthens the patience of waits. The hook variables are
/// written with plain stores while the runtime reads them from other threads, as the runtime's own
/// hooks are meant to be set: before the jobs that use them, under this library's lock. The C
/// library's functions that `Platform` binds by name (`dladdr`, `gettid`, `backtrace`) are the
/// platform's public API, not the runtime's. `.ci/public-api/check.py --door` fails on any of
/// these outside this folder and `Platform/`.
///
/// ``selfTest(driver:forcing:)`` checks the assumptions of the table once, at the first scope of
/// the process, and the scope reports what is off in plain words (``Findings/degraded``). A test
/// forces each failure through `RuntimeDoor.Forced.brokenAssumptions`.
enum RuntimeDoor {
  /// An assumption of the table, as the self-test names it.
  enum Assumption: String, CaseIterable, Sendable {
    case functions, hooks, jobFlags, taskStatus, asyncContexts, taskLocalStorage, durationWords, demangler
  }

  // MARK: Conditions a test forces

  /// Conditions a test forces on the scopes it opens (and only on those: it is a task-local).
  struct Forced: Sendable {
    /// A runtime that lacks what a scope needs, with the reason.
    var runtimeUnavailable: String?
    /// A task layout that calibration cannot read.
    var taskStatusUnreadable = false
    /// A runtime whose `Task.sleep` bypasses the hooks, in a build without the detector.
    var realSleepsUnseen = false
    /// Assumptions of the runtime door that its self-test finds broken.
    var brokenAssumptions: Set<RuntimeDoor.Assumption> = []
    /// The warnings said so far under these conditions: a forced test is a process of its own,
    /// where each warning is said once.
    let warned = Locked<Set<String>>([])

    /// Conditions to force; making them tells ``RuntimeDoor/status(at:)`` to look for them from
    /// now on (until then, a status read costs no task-local read).
    init(
      runtimeUnavailable: String? = nil,
      taskStatusUnreadable: Bool = false,
      realSleepsUnseen: Bool = false,
      brokenAssumptions: Set<RuntimeDoor.Assumption> = []
    ) {
      self.runtimeUnavailable = runtimeUnavailable
      self.taskStatusUnreadable = taskStatusUnreadable
      self.realSleepsUnseen = realSleepsUnseen
      self.brokenAssumptions = brokenAssumptions
      RuntimeDoor.statusLayout.withLock { $0.forcingSeen = true }
    }
  }

  /// What the current test forces; nil everywhere but in this library's own tests.
  @TaskLocal static var forced: Forced?

  /// Whether a real `Task.sleep` in a scope goes unseen: the runtime asks the current scheduling
  /// executor instead of the delay hooks (it exports `SchedulingExecutor`), and this build has no
  /// scheduling executor of its own to see it.
  static var realSleepsGoUnseen: Bool {
    if forced?.realSleepsUnseen == true { return true }
    #if compiler(>=6.3)
    return false
    #else
    return RuntimeDoor.runtimeHasSchedulingExecutor
    #endif
  }

  // MARK: Functions found by name

  private typealias TaskID = @convention(thin) (UnownedJob) -> UInt64
  private typealias GetCurrent = @convention(thin) () -> UnsafeMutableRawPointer?
  private typealias Cancel = @convention(thin) (UnsafeMutableRawPointer) -> Void
  private typealias IsCancelled = @convention(thin) (UnsafeMutableRawPointer) -> Bool
  private typealias Retain = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer
  private typealias Release = @convention(c) (UnsafeMutableRawPointer) -> Void
  private typealias LocalValueGet = @convention(thin) (UnsafeRawPointer) -> UnsafeRawPointer?
  private typealias Demangle =
    @convention(c) (
      UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
    ) -> UnsafeMutablePointer<CChar>?

  private static let taskID: TaskID? = function("swift_task_getJobTaskId", as: TaskID.self)
  private static let getCurrent: GetCurrent? = function("swift_task_getCurrent", as: GetCurrent.self)
  private static let cancelTask: Cancel? = function("swift_task_cancel", as: Cancel.self)
  private static let isCancelledTask: IsCancelled? = function("swift_task_isCancelled", as: IsCancelled.self)
  private static let retainObject: Retain? = function("swift_retain", as: Retain.self)
  private static let releaseObject: Release? = function("swift_release", as: Release.self)
  private static let localValueGet: LocalValueGet? = function("swift_task_localValueGet", as: LocalValueGet.self)
  private static let swiftDemangle: Demangle? = function("swift_demangle", as: Demangle.self)

  /// The functions a scope cannot work without.
  static let requiredFunctions = ["swift_task_getJobTaskId", "swift_task_getCurrent", "swift_retain", "swift_release"]

  private static func function<T>(_ name: String, as type: T.Type) -> T? {
    guard let pointer = Platform.symbol(named: name) else { return nil }
    return unsafeBitCast(pointer, to: type)
  }

  /// Whether the runtime exports `name` (a function or a variable).
  static func exports(_ name: String) -> Bool {
    Platform.symbol(named: name) != nil
  }

  /// Whether the thread sanitizer runs in this process.
  static let isThreadSanitized = exports("__tsan_init")

  // MARK: Hooks

  /// The runtime's hook variables (`ConcurrencyHooks.def`), typed as it declares them: when one is
  /// set, the runtime calls it instead of its own function, passing that function along.
  typealias EnqueueOriginal = @convention(thin) (UnownedJob) -> Void
  typealias EnqueueHook = @convention(thin) (UnownedJob, EnqueueOriginal) -> Void
  typealias MainOriginal = @convention(thin) () -> UnownedSerialExecutor
  typealias MainHook = @convention(thin) (MainOriginal) -> UnownedSerialExecutor
  typealias DelayOriginal = @convention(thin) (UInt64, UnownedJob) -> Void
  typealias DelayHook = @convention(thin) (UInt64, UnownedJob, DelayOriginal) -> Void
  typealias DeadlineOriginal = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob) -> Void
  typealias DeadlineHook = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, DeadlineOriginal) -> Void

  /// Where the four hook variables are, as addresses (`Sendable`, so the slots are a plain
  /// `static let`), each typed as its hook where it is used.
  struct HookSlots: Sendable {
    private let enqueueAddress, mainAddress, delayAddress, deadlineAddress: UInt

    /// The slots of `found`, four, in the order of ``RuntimeDoor/hookNames``.
    init(_ found: [UnsafeMutableRawPointer]) {
      (enqueueAddress, mainAddress, delayAddress, deadlineAddress) = (
        UInt(bitPattern: found[0]), UInt(bitPattern: found[1]), UInt(bitPattern: found[2]), UInt(bitPattern: found[3])
      )
    }

    var enqueue: UnsafeMutablePointer<EnqueueHook?> { UnsafeMutablePointer(bitPattern: enqueueAddress)! }
    var main: UnsafeMutablePointer<MainHook?> { UnsafeMutablePointer(bitPattern: mainAddress)! }
    var delay: UnsafeMutablePointer<DelayHook?> { UnsafeMutablePointer(bitPattern: delayAddress)! }
    var deadline: UnsafeMutablePointer<DeadlineHook?> { UnsafeMutablePointer(bitPattern: deadlineAddress)! }
  }

  /// The hook variables, as the runtime exports them.
  static let hookNames = [
    "swift_task_enqueueGlobal_hook", "swift_task_getMainExecutor_hook", "swift_task_enqueueGlobalWithDelay_hook",
    "swift_task_enqueueGlobalWithDeadline_hook",
  ]

  /// The hook variables, found by name in the loaded runtime; nil when one is missing. Written
  /// only by `RuntimeHooks`, under its lock.
  static let hookSlots: HookSlots? = {
    let found = hookNames.compactMap(Platform.symbol(named:))
    guard found.count == hookNames.count else { return nil }
    return HookSlots(found)
  }()

  /// A hook as an address (a thin function is one pointer): how a slot is known to hold it.
  static func address<Hook>(ofHook hook: Hook) -> UInt {
    unsafeBitCast(hook, to: UInt.self)
  }

  // MARK: Tasks and jobs

  /// The current task as a job, if a task is running.
  @inline(__always)
  static var currentTaskJob: UnownedJob? {
    getCurrent?().map { unsafeBitCast($0, to: UnownedJob.self) }
  }

  /// A job's address, which is its task's when the job is a task.
  @inline(__always)
  static func address(of job: UnownedJob) -> UInt {
    UInt(bitPattern: unsafeBitCast(job, to: UnsafeMutableRawPointer.self))
  }

  /// The address of the task suspended on `continuation`: a continuation is its task.
  static func taskAddress<T, E: Error>(of continuation: UnsafeContinuation<T, E>) -> UInt {
    UInt(bitPattern: unsafeBitCast(continuation, to: UnsafeRawPointer.self))
  }

  /// The runtime's id of `job`'s task.
  @inline(__always)
  static func taskID(of job: UnownedJob) -> UInt64? {
    taskID?(job)
  }

  /// The job's flags: after the heap-object header and two scheduler words (`swift::Job`).
  @inline(__always)
  private static func flags(of job: UnownedJob) -> UInt32 {
    unsafeBitCast(job, to: UnsafeRawPointer.self).load(
      fromByteOffset: 4 * MemoryLayout<UnsafeRawPointer>.size,
      as: UInt32.self
    )
  }

  /// Whether `job` is a task (kind 0, `JobKind::Task`, in the low byte of its flags) rather than an
  /// actor's turn or a continuation job.
  @inline(__always)
  static func isTask(_ job: UnownedJob) -> Bool {
    flags(of: job) & 0xFF == 0
  }

  /// Whether `job` is a task no parent awaits — a `Task {}` or `Task.detached {}`, not a child of
  /// `async let` or a task group (bit 24 of the flags, `Task_IsChildTask`).
  static func isUnstructuredTask(_ job: UnownedJob) -> Bool {
    isTask(job) && flags(of: job) & (1 << 24) == 0
  }

  /// Cancels the task at `address` (alive).
  static func cancelTask(at address: UInt) -> Bool {
    guard let cancelTask, let pointer = UnsafeMutableRawPointer(bitPattern: address) else { return false }
    cancelTask(pointer)
    return true
  }

  /// Whether the task at `address` (alive) is cancelled, as the runtime says.
  static func isCancelled(at address: UInt) -> Bool? {
    guard let isCancelledTask, let pointer = UnsafeMutableRawPointer(bitPattern: address) else { return nil }
    return isCancelledTask(pointer)
  }

  /// Keeps the object at `address` alive until ``release(_:)``.
  static func retain(_ address: UInt) {
    guard let retainObject, let pointer = UnsafeMutableRawPointer(bitPattern: address) else { return }
    _ = retainObject(pointer)
  }

  /// Balances ``retain(_:)``.
  static func release(_ address: UInt) {
    guard let releaseObject, let pointer = UnsafeMutableRawPointer(bitPattern: address) else { return }
    releaseObject(pointer)
  }

  // MARK: Task status

  /// The status flags of a task (`ActiveTaskStatus`'s first 32 bits).
  struct Status {
    let bits: UInt32
    var isCancelled: Bool { bits & 0x100 != 0 }
    var isRunning: Bool { bits & 0x800 != 0 }
    var isEnqueued: Bool { bits & 0x1000 != 0 }
    var isComplete: Bool { bits & 0x2000 != 0 }
    var hasDependency: Bool { bits & 0x4000 != 0 }
  }

  /// Where a task keeps its status: found once, on a running task, by ``calibrateStatus(on:)``.
  fileprivate static let statusLayout = Locked(StatusLayout())

  /// What a status read needs, in one lock: the offset, and whether a test may force it away.
  fileprivate struct StatusLayout: Sendable {
    /// Nil until calibrated; then the offset, or nil when neither candidate holds.
    var offset: Int?? = .none
    /// Whether a ``Forced`` has been made in this process: only then is the task-local read.
    var forcingSeen = false
  }

  /// The candidates: the private storage follows the 64-byte job header and two words, and holds
  /// the status either first or after two words of exclusivity state.
  private static let candidateOffsets = [96, 80]

  /// Finds where `task` — running now, on this thread — keeps its status, once per process: the
  /// word must be non-zero, hold the task's priority in its low byte (as the job flags do), not say
  /// "complete", and agree with the runtime on whether the task is cancelled. Returns whether task
  /// status can be read on this runtime.
  static func calibrateStatus(on task: UnownedJob) -> Bool {
    statusLayout.withLock { layout in
      guard layout.offset == nil else { return }
      guard MemoryLayout<UnsafeRawPointer>.size == 8, let isCancelledTask else {
        layout.offset = .some(nil)
        return
      }
      let pointer = unsafeBitCast(task, to: UnsafeMutableRawPointer.self)
      let flags = flags(of: task)
      let cancelled = isCancelledTask(pointer)
      layout.offset = .some(
        candidateOffsets.first { candidate in
          isStatus(pointer.load(fromByteOffset: candidate, as: UInt64.self), ofJobFlags: flags, cancelled: cancelled)
        }
      )
    }
    return readableStatusOffset != nil
  }

  /// Whether `word` can be the status of a running task whose job flags are `flags`: non-zero, its
  /// priority at least the job's (escalation raises the status's, never the job's), not complete,
  /// and cancelled exactly when the runtime says so.
  static func isStatus(_ word: UInt64, ofJobFlags flags: UInt32, cancelled: Bool) -> Bool {
    let status = Status(bits: UInt32(truncatingIfNeeded: word))
    return word != 0 && status.bits & 0xFF >= (flags >> 8) & 0xFF && !status.isComplete
      && status.isCancelled == cancelled
  }

  /// The offset of a task's status, when it can be read (a test can force it unreadable).
  private static var readableStatusOffset: Int? {
    let layout = statusLayout.snapshot
    if layout.forcingSeen, let forced = RuntimeDoor.forced,
      forced.taskStatusUnreadable || forced.brokenAssumptions.contains(.taskStatus)
    {
      return nil
    }
    return layout.offset ?? nil
  }

  /// The status of the task at `address` (alive); nil when this runtime's layout is not known.
  static func status(at address: UInt) -> Status? {
    guard let offset = readableStatusOffset, let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
    return Status(bits: pointer.load(fromByteOffset: offset, as: UInt32.self))
  }

  // MARK: Async contexts

  /// The resume points of the async calls the task at `address` is suspended in, innermost first,
  /// at most `maximum`; nil when the task's layout is not the one this code knows.
  ///
  /// The task must be suspended on a continuation no one can resume meanwhile. A suspended task's
  /// `ResumeContext` (the word after the 64-byte job header) is the continuation's context, and
  /// its `ResumeTask` (the job's last word) is that context's `ResumeParent`, as
  /// `swift_continuation_init` sets them: checked before anything is followed.
  static func resumePoints(ofSuspendedTask address: UInt, maximum: Int = 32) -> [UInt]? {
    if RuntimeDoor.forced?.brokenAssumptions.contains(.asyncContexts) == true { return nil }
    let word = MemoryLayout<UInt>.size
    guard word == 8, let task = UnsafeRawPointer(bitPattern: address) else { return nil }
    let resumeTask = task.load(fromByteOffset: 7 * word, as: UInt.self)
    let first = task.load(fromByteOffset: 8 * word, as: UInt.self)
    // The resume task is a function: in a loaded image, or the layout is not this one, and the
    // context word is not followed at all.
    guard resumeTask != 0, Platform.isInLoadedImage(resumeTask), first % UInt(word) == 0,
      let context = UnsafeRawPointer(bitPattern: first), context.load(fromByteOffset: word, as: UInt.self) == resumeTask
    else { return nil }
    return resumePoints(from: context, maximum: maximum)
  }

  /// The resume points of the task at `address`, whose job the caller holds, queued and not run
  /// yet: its `ResumeContext` is where it suspended, whose resume function must lie in a loaded
  /// image before anything is followed. Nil when the layout is not the one this code knows.
  static func resumePoints(ofQueuedTask address: UInt, maximum: Int = 32) -> [UInt]? {
    if RuntimeDoor.forced?.brokenAssumptions.contains(.asyncContexts) == true { return nil }
    let word = MemoryLayout<UInt>.size
    guard word == 8, let task = UnsafeRawPointer(bitPattern: address) else { return nil }
    let first = task.load(fromByteOffset: 8 * word, as: UInt.self)
    guard first % UInt(word) == 0, let context = UnsafeRawPointer(bitPattern: first),
      Platform.isInLoadedImage(context.load(fromByteOffset: word, as: UInt.self))
    else { return nil }
    return resumePoints(from: context, maximum: maximum)
  }

  /// The resume function of `context` and of each of its parents (an async context's first two
  /// words), innermost first, at most `maximum`; each must lie in a loaded image, or the walk
  /// stops there.
  private static func resumePoints(from context: UnsafeRawPointer, maximum: Int) -> [UInt] {
    let word = MemoryLayout<UInt>.size
    var points: [UInt] = []
    var next: UnsafeRawPointer? = context
    while let current = next, points.count < maximum {
      let resume = current.load(fromByteOffset: word, as: UInt.self)
      guard Platform.isInLoadedImage(resume) else { break }
      points.append(resume)
      let parent = current.load(as: UInt.self)
      next = parent % UInt(word) == 0 ? UnsafeRawPointer(bitPattern: parent) : nil
    }
    return points
  }

  // MARK: Task-local values

  /// Whether task-local values are read from the runtime's storage, or with `TaskLocal.get()`:
  /// decided once, by reading a probe both ways.
  static var readsTaskLocalsDirectly: Bool { trustedLocalValueGet != nil }

  /// `swift_task_localValueGet` where the self-test trusts it, else nil: one lazy global for the
  /// hooks to read on every hop, not two.
  private static let trustedLocalValueGet: LocalValueGet? = checkTaskLocalStorage() ? localValueGet : nil

  /// The value bound to `taskLocal` (an optional whose default is nil) by the innermost
  /// `withValue` of this task, or nil: `get()`, specialised for the caller. Test support's hooks
  /// read the scope's task-local on every hop to the main actor (`steps.1e4.effects`); the storage
  /// holds a `Value` by construction, as only this `TaskLocal` binds under its own address.
  @inline(__always)
  static func bound<Wrapped>(_ taskLocal: TaskLocal<Wrapped?>, direct: Bool = true) -> Wrapped? {
    guard direct, let localValueGet = trustedLocalValueGet else { return taskLocal.get() }
    guard let storage = localValueGet(UnsafeRawPointer(Unmanaged.passUnretained(taskLocal).toOpaque())) else {
      return nil
    }
    return storage.assumingMemoryBound(to: Wrapped?.self).pointee
  }

  /// `body` applied to the object bound to `taskLocal`, or nil: ``bound(_:)`` without retaining
  /// and releasing the object, which the binding keeps alive while `body` runs.
  @inline(__always)
  static func withBoundObject<Object: AnyObject, Result>(
    _ taskLocal: TaskLocal<Object?>,
    direct: Bool = true,
    _ body: (Object) -> Result
  ) -> Result? {
    guard direct, let localValueGet = trustedLocalValueGet else { return taskLocal.get().map(body) }
    guard let storage = localValueGet(UnsafeRawPointer(Unmanaged.passUnretained(taskLocal).toOpaque())) else {
      return nil
    }
    // An optional reference and an optional unmanaged one are the same nullable pointer: loaded
    // as the latter, as a copy of its bits, the memory stays bound to the type that stored it.
    guard let object = storage.load(as: Unmanaged<Object>?.self) else { return nil }
    return withGuaranteed(object, body)
  }

  /// `body` applied to `object` without retaining it: the caller guarantees it stays alive.
  @inline(__always)
  static func withGuaranteed<Object: AnyObject, Result>(
    _ object: Unmanaged<Object>,
    _ body: (Object) -> Result
  ) -> Result {
    object._withUnsafeGuaranteedRef(body)
  }

  /// A probe for ``checkTaskLocalStorage()``: its own task-local, bound only there.
  private final class Probe: Sendable {}
  @TaskLocal private static var probe: Probe?

  /// Whether the runtime's storage answers what `get()` answers: nil unbound, the bound object
  /// bound, the inner one nested.
  private static func checkTaskLocalStorage() -> Bool {
    guard let localValueGet else { return false }
    let key = UnsafeRawPointer(Unmanaged.passUnretained($probe).toOpaque())
    func read() -> Probe? {
      localValueGet(key).flatMap { $0.load(as: Unmanaged<Probe>?.self)?.takeUnretainedValue() }
    }
    let outer = Probe()
    let inner = Probe()
    guard read() == nil else { return false }
    return $probe.withValue(outer) {
      read() === outer && $probe.withValue(inner) { read() === inner } && read() === outer
    }
  }

  // MARK: Duration

  /// Whether `Duration`'s layout is two words of attoseconds, low then high: checked once against
  /// `components`.
  static let durationIsTwoWords: Bool = {
    guard MemoryLayout<Duration>.size == 16 else { return false }
    let samples: [Duration] = [
      .zero, .seconds(1), .nanoseconds(5), .seconds(-1), .seconds(Int64.max), .seconds(Int64.min),
    ]
    return samples.allSatisfy { sample in
      let words = unsafeBitCast(sample, to: (UInt64, Int64).self)
      return words == attoseconds(sample) && unsafeBitCast(words, to: Duration.self) == sample
    }
  }()

  /// `duration` in attoseconds as two words (low, high): read directly where
  /// ``durationIsTwoWords`` holds (one hardware division a timer key, `callbacks.1e4.effects`),
  /// else computed from `components`.
  @inline(__always)
  static func attosecondWords(of duration: Duration, twoWords: Bool = durationIsTwoWords) -> (low: UInt64, high: Int64)
  {
    guard twoWords else { return attoseconds(duration) }
    let (low, high) = unsafeBitCast(duration, to: (UInt64, Int64).self)
    return (low, high)
  }

  /// The duration of `words` attoseconds (low, high).
  @inline(__always)
  static func duration(
    attosecondWords words: (low: UInt64, high: Int64),
    twoWords: Bool = durationIsTwoWords
  ) -> Duration {
    guard twoWords else { return durationFromComponents(attosecondWords: words) }
    return unsafeBitCast((words.low, words.high), to: Duration.self)
  }

  /// The duration of `words` attoseconds (low, high), made from its public components: seconds
  /// are the 128-bit count divided by 10¹⁸, the rest attoseconds.
  static func durationFromComponents(attosecondWords words: (low: UInt64, high: Int64)) -> Duration {
    let quintillion: Int64 = 1_000_000_000_000_000_000
    let (seconds, attoseconds) = quintillion.dividingFullWidth((high: words.high, low: words.low))
    return Duration(secondsComponent: seconds, attosecondsComponent: attoseconds)
  }

  /// `duration` in attoseconds as two words, from its public components.
  static func attoseconds(_ duration: Duration) -> (low: UInt64, high: Int64) {
    let (seconds, attoseconds) = duration.components
    let quintillion: Int64 = 1_000_000_000_000_000_000
    let product = seconds.multipliedFullWidth(by: quintillion)
    let (low, carry) = product.low.addingReportingOverflow(UInt64(bitPattern: attoseconds))
    let high = product.high &+ (attoseconds < 0 ? -1 : 0) &+ (carry ? 1 : 0)
    return (low, high)
  }

  // MARK: Names

  /// `name` demangled by the runtime (`swift_demangle`); nil for a name that is not Swift, or
  /// where the demangler is missing or answered wrong in the self-test.
  static func demangle(_ name: String) -> String? {
    guard demanglerWorks, RuntimeDoor.forced?.brokenAssumptions.contains(.demangler) != true else {
      return nil
    }
    return rawDemangle(name)
  }

  private static func rawDemangle(_ name: String) -> String? {
    guard let swiftDemangle, let demangled = swiftDemangle(name, name.utf8.count, nil, nil, 0) else { return nil }
    defer { free(demangled) }
    return String(cString: demangled)
  }

  /// Whether the demangler answers `Swift.Int` for `$sSiD`.
  static let demanglerWorks = rawDemangle("$sSiD") == "Swift.Int"

  /// Whether the loaded runtime has `SchedulingExecutor` (its protocol descriptor, by mangled name):
  /// a runtime whose `Task.sleep` asks the current scheduling executor instead of the delay hooks.
  static let runtimeHasSchedulingExecutor = exports("$ss18SchedulingExecutorMp")
}

extension RuntimeDoor.HookSlots {
  /// Whether the hooks hold exactly `hooks`, in the order of ``RuntimeDoor/hookNames``.
  func hold(_ hooks: [UInt]) -> Bool {
    UnsafeRawPointer(enqueue).load(as: UInt.self) == hooks[0] && UnsafeRawPointer(main).load(as: UInt.self) == hooks[1]
      && UnsafeRawPointer(delay).load(as: UInt.self) == hooks[2]
      && UnsafeRawPointer(deadline).load(as: UInt.self) == hooks[3]
  }

  /// The hooks' current values as addresses, in the order of ``RuntimeDoor/hookNames`` (0: unset).
  var values: [UInt] {
    [UnsafeRawPointer(enqueue), UnsafeRawPointer(main), UnsafeRawPointer(delay), UnsafeRawPointer(deadline)].map {
      $0.load(as: UInt.self)
    }
  }
}

/// The concurrency runtime's hooks that virtual-time scopes use, installed while at least one scope
/// is open and removed when the last one closes.
///
/// The hooks are variables of libswift_Concurrency (declared in the runtime's
/// `ConcurrencyHooks.def`); when one is set, the runtime calls it instead of its own function,
/// passing that function along:
/// - `swift_task_enqueueGlobal_hook` sees every job bound for the global concurrent executor — a
///   new `Task {}`, `async let` and task-group children, a task resuming after an `await`, a default
///   actor's turn. A job of a scope goes to that scope's serial lane; every other job goes on to the
///   global executor untouched, so tests running in parallel outside any scope are not affected.
/// - `swift_task_getMainExecutor_hook` is asked for the main actor's executor on every hop to the
///   main actor. From inside a scope it answers ``MainActorProxy``, so the scope counts main-actor
///   jobs too; elsewhere it answers the real main executor.
/// - `swift_task_enqueueGlobalWithDelay_hook` and `…WithDeadline_hook` see real timed waits
///   (`Task.sleep`); one started inside a scope is recorded as an escape, then performed as asked.
@available(EffectsVirtualTime, *)
enum RuntimeHooks {
  /// This library's hooks as addresses (a thin function is one pointer), in the order of
  /// ``RuntimeDoor/hookNames``: how a slot is known to still hold one of them.
  private static let ours: [UInt] = [
    RuntimeDoor.address(ofHook: enqueueHook), RuntimeDoor.address(ofHook: mainHook),
    RuntimeDoor.address(ofHook: delayHook), RuntimeDoor.address(ofHook: deadlineHook),
  ]

  private static let slots = RuntimeDoor.hookSlots

  /// How many scopes are open.
  private static let installs = Locked(0)

  private static let enqueueHook: RuntimeDoor.EnqueueHook = { job, original in
    if !VirtualExecutor.take(job, onMainActor: false) { original(job) }
  }

  private static let mainHook: RuntimeDoor.MainHook = { original in
    VirtualExecutor.isCurrentOpen ? MainActorProxy.shared.asUnownedSerialExecutor() : original()
  }

  private static let delayHook: RuntimeDoor.DelayHook = { nanoseconds, job, original in
    VirtualExecutor.current?.recordRealSleep(of: .nanoseconds(nanoseconds), on: "the global executor")
    original(nanoseconds, job)
  }

  private static let deadlineHook: RuntimeDoor.DeadlineHook = {
    seconds,
    nanoseconds,
    toleranceSeconds,
    toleranceNanoseconds,
    clock,
    job,
    original in
    // The runtime's clock ids: 1 is the continuous clock, 2 the suspending one.
    VirtualExecutor.current?.recordRealSleep(of: nil, on: clock == 2 ? "SuspendingClock" : "ContinuousClock")
    original(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job)
  }

  /// Why a scope could not install the hooks.
  enum RetainFailure: Error {
    /// The runtime lacks something a scope needs (the reason says what).
    case unavailable(String)
    /// Another library has set these hooks, and they stay as it set them.
    case heldByAnotherLibrary([String])
  }

  /// Installs the hooks for one more scope; fails, changing nothing, when they are unavailable or
  /// another library has set one of them.
  static func retain() -> Result<Void, RetainFailure> {
    guard let slots else { return .failure(.unavailable("this concurrency runtime does not export its hooks")) }
    return installs.withLock { count in
      if count == 0 {
        let held = zip(RuntimeDoor.hookNames, slots.values).filter { $0.1 != 0 }.map(\.0)
        guard held.isEmpty else { return .failure(.heldByAnotherLibrary(held)) }
        slots.enqueue.pointee = enqueueHook
        slots.main.pointee = mainHook
        slots.delay.pointee = delayHook
        slots.deadline.pointee = deadlineHook
      }
      count += 1
      return .success(())
    }
  }

  /// Removes the hooks when the last scope closes: only those that still hold this library's
  /// functions, so a hook another library set meanwhile stays as it set it.
  static func release() {
    guard let slots else { return }
    installs.withLock { count in
      count -= 1
      guard count == 0 else { return }
      let values = slots.values
      if values[0] == ours[0] { slots.enqueue.pointee = nil }
      if values[1] == ours[1] { slots.main.pointee = nil }
      if values[2] == ours[2] { slots.delay.pointee = nil }
      if values[3] == ours[3] { slots.deadline.pointee = nil }
    }
  }

  /// The hooks that no longer hold this library's functions while a scope is open: another
  /// library replaced them (swift-concurrency-extras' `withMainSerialExecutor` sets the enqueue
  /// hook and, when it ends, leaves its own there). Empty when every hook is still ours.
  static func replacedWhileOpen() -> [String] {
    guard let slots else { return [] }
    return installs.withLock { count in
      // Every advance asks: the common answer (all four still ours) reads four words, no array.
      guard count > 0, !slots.hold(ours) else { return [] }
      return zip(RuntimeDoor.hookNames, zip(slots.values, ours)).filter { $0.1.0 != $0.1.1 }.map(\.0)
    }
  }
}

extension RuntimeDoor {
  /// What the self-test found: the assumptions of the table that do not hold here.
  struct Findings: Sendable, Equatable {
    /// The assumptions that do not hold (checked, or forced by a test).
    var broken: Set<Assumption> = []
    /// What a required function or hook is called that the runtime does not export.
    var missing: [String] = []

    /// The report of a scope that cannot open here, in plain words; nil when one can. A runtime
    /// that lacks a symbol is older than the engine; one whose layout differs is newer than this
    /// version of the library knows.
    var cannotOpen: String? {
      if !missing.isEmpty {
        return VirtualTimeAvailability.runtimeUnavailable(
          "this concurrency runtime does not export \(missing.joined(separator: ", "))"
        )
      }
      return unknownRuntime.map(VirtualTimeAvailability.unknownRuntime)
    }

    /// What of this runtime the library does not know, when a scope cannot work with it.
    private var unknownRuntime: String? {
      if broken.contains(.functions) {
        return """
          this concurrency runtime's swift_task_getCurrent or swift_task_getJobTaskId does not answer the running \
          task as this library knows it
          """
      }
      if broken.contains(.hooks) { return "this concurrency runtime's hooks are not the ones this library knows" }
      if broken.contains(.jobFlags) {
        return """
          this concurrency runtime's job layout is not one this library knows (the running task's flags do not \
          say it is a task), so the scope could not tell its tasks from other jobs
          """
      }
      return nil
    }

    /// The report of what degrades here, once per process, in plain words; nil when nothing does.
    /// Task status has a warning of its own (`VirtualTimeAvailability.taskStatusUnreadable`).
    var degraded: String? {
      let lines = Assumption.degradable.filter(broken.contains).map { "- \(RuntimeDoor.consequence(of: $0))" }
      guard !lines.isEmpty else { return nil }
      return """
        withVirtualTime checked the Swift runtime it runs on, and \(lines.count == 1 ? "one thing differs" : "\(lines.count) things differ") \
        from the runtimes this library knows. Virtual time stays exact; what changes:
        \(lines.joined(separator: "\n"))
        Said once per test process.
        """
    }
  }

  /// What a broken assumption that does not stop a scope changes, in plain words.
  static func consequence(of assumption: Assumption) -> String {
    switch assumption {
    case .asyncContexts:
      return """
        a suspended task's async frames are not laid out as this library knows, so a report of a sleeping or \
        suspended task names the scope's line, not the line where the task waits.
        """
    case .taskLocalStorage:
      return """
        swift_task_localValueGet does not answer what TaskLocal.get() answers, so the scope is read with get() on \
        each hop to the main actor (slower, as exact).
        """
    case .durationWords:
      return """
        Duration is not laid out as two words of attoseconds, so the scheduler's keys are made from \
        Duration.components (slower, as exact).
        """
    case .demangler:
      return """
        swift_demangle is missing or answers wrong, so a read inside an extension an app adds to this library's \
        types is placed at the next line of the code under test, and a read in XCTest's setUp() is not said to be \
        in setUp().
        """
    case .functions, .hooks, .jobFlags, .taskStatus:
      return "\(assumption.rawValue) does not hold."
    }
  }

  /// The findings for the scope opening now: checked once per process, at the first scope, with
  /// `driver`, the task opening it; under a test's forced conditions, checked again with those.
  @available(EffectsVirtualTime, *)
  static func findings(driver: UnownedJob?, isolation: isolated (any Actor)? = #isolation) async -> Findings {
    if let forced = RuntimeDoor.forced {
      return await selfTest(driver: driver, forcing: forced.brokenAssumptions)
    }
    if let found = checked.snapshot { return found }
    let found = await selfTest(driver: driver, forcing: [])
    return checked.withLock { checked in
      if let first = checked { return first }
      checked = found
      return found
    }
  }

  private static let checked = Locked<Findings?>(nil)

  /// Checks every assumption of the table, on this runtime, from `driver` (the running task):
  /// each that does not hold, or that `broken` forces, is in the answer.
  @available(EffectsVirtualTime, *)
  static func selfTest(
    driver: UnownedJob?,
    forcing broken: Set<Assumption>,
    isolation: isolated (any Actor)? = #isolation
  ) async -> Findings {
    var findings = Findings()
    findings.missing = (requiredFunctions + hookNames).filter { !exports($0) }
    let current = withUnsafeCurrentTask { task in
      task.map { UInt(bitPattern: unsafeBitCast($0, to: UnsafeRawPointer.self)) }
    }
    let holds: [Assumption: Bool] = [
      .functions: driver.map(address(of:)) == current && current != nil && driver.flatMap(taskID(of:)) != nil,
      .hooks: hookNames.allSatisfy(exports),
      .jobFlags: driver.map(isTask) ?? false,
      .taskStatus: driver.map(calibrateStatus(on:)) ?? false,
      .asyncContexts: await checkAsyncContexts(),
      .taskLocalStorage: readsTaskLocalsDirectly,
      .durationWords: durationIsTwoWords,
      .demangler: demanglerWorks,
    ]
    findings.broken = Set(holds.filter { !$0.value }.map(\.key)).union(broken)
    return findings
  }

  /// Whether a task, inside the body of a continuation (once the runtime has set its resume context
  /// and resume task, as a suspended task's are), is the continuation's address, and its frames
  /// can be walked from there to a function in a loaded image.
  private static func checkAsyncContexts(isolation: isolated (any Actor)? = #isolation) async -> Bool {
    guard let task = currentTaskJob.map(address(of:)) else { return false }
    return await withUnsafeContinuation { continuation in
      let points = resumePoints(ofSuspendedTask: task) ?? []
      continuation.resume(returning: taskAddress(of: continuation) == task && !points.isEmpty)
    }
  }

}

extension RuntimeDoor.Assumption {
  /// The assumptions whose failure leaves a scope working, with less; in the table's order.
  static let degradable: [Self] = [
    .asyncContexts, .taskLocalStorage, .durationWords, .demangler,
  ]
}
