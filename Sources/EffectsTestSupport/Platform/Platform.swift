/// Everything EffectsTestSupport asks of the operating system, behind one interface: the library's
/// logic calls ``Platform``, and each OS answers in its own file, so a reader sees what runs where.
///
/// - `Platform+Linux.swift` (`#if os(Linux)`) reads `/proc` (its texts are parsed by ``ProcFS``)
///   and symbolicates stacks with the toolchain's `Runtime` module.
/// - `Platform+Darwin.swift` (`#if canImport(Darwin)`: macOS, iOS, tvOS, watchOS, visionOS) asks
///   the Mach and BSD interfaces.
/// - `Platform+Other.swift`, for any other OS, answers "unknown" everywhere: the library then
///   behaves as it did before it could ask.
/// - `Platform+POSIX.swift`, what Linux and Darwin do alike: the loaded runtime's symbols (the
///   concurrency hooks and task functions the engine looks up by name) and thread-specific
///   values. No file of the engine imports a C library of its own.
///
/// What each platform provides:
///
/// | Member               | Linux                            | Darwin                            | Other     |
/// | -------------------- | -------------------------------- | --------------------------------- | --------- |
/// | `currentThread()`    | `/proc/self/task/<tid>/stat`     | `pthread_mach_thread_np`          | nil       |
/// | `state(of:)`         | the state letter of that file    | `thread_info(THREAD_BASIC_INFO)`  | `unknown` |
/// | `isTraced`           | `TracerPid:` of /proc/self/status | `P_TRACED`, through `sysctl`     | false     |
/// | `captureReturnAddresses(…)` | glibc's `backtrace()`     | nothing                           | nothing   |
/// | `frames(of:kind:…)`  | the `Runtime` module             | nil                               | nil       |
/// | `operatingSystem`    | "Linux"                          | "macOS 14.5", "iOS 17.2"…         | its name  |
/// | `withAutoreleasePool(_:)` | runs the body                | `autoreleasepool(invoking:)`      | runs the body |
protocol PlatformInterface {
  /// A thread, captured on itself by ``currentThread()``, whose state another thread can read.
  associatedtype Thread: Sendable

  /// The calling thread, or nil where the platform cannot read a thread's state.
  static func currentThread() -> Thread?

  /// What `thread` is doing now, as the kernel sees it. Cheap enough for a watchdog's every look
  /// (one small file read, or one system call), and never blocks on the thread.
  static func state(of thread: Thread) -> Platform.ThreadState

  /// Whether a debugger (or any other tracer) is attached to this process now. False where the
  /// platform cannot say. It costs a file read or a system call: ask when the answer matters.
  static var isTraced: Bool { get }

  /// Appends the return addresses of the current call stack to `addresses`, innermost first, up
  /// to `maximumDepth` of them, and answers how many it appended. Cheap enough to run each time a
  /// virtual-time scope starts a task (about 0.1 µs a frame, no allocation once `addresses` has
  /// room); nothing is symbolicated. Appends nothing where the platform cannot symbolicate them
  /// later (``frames(of:kind:locating:)`` answers nil there), so it costs nothing there.
  static func captureReturnAddresses(maximumDepth: Int, into addresses: inout [UInt]) -> Int

  /// The frames of `addresses` of this process — return addresses captured by
  /// ``captureReturnAddresses(maximumDepth:into:)``, or the resume points of a suspended task's
  /// async calls (see `kind`) — innermost first, with the source location of each frame whose
  /// mangled symbol name `locating` accepts: the caller decides which frames are worth the cost of
  /// reading line tables. Frames without a symbol, and frames `locating` refuses, are left out.
  /// Nil where the platform cannot symbolicate.
  static func frames(
    of addresses: [UInt],
    kind: Platform.AddressKind,
    locating: (_ symbolName: String) -> Bool
  ) -> [Platform.Frame]?

  /// The name and version of the operating system, for messages: "macOS 14.5", "iOS 17.2",
  /// "Linux".
  static var operatingSystem: String { get }

  /// Runs `body` inside an autorelease pool where Objective-C code autoreleases objects: a thread
  /// that runs work for one scope after another (``ParkedThreads``) never exits, and would
  /// otherwise keep what that work autoreleased for ever.
  static func withAutoreleasePool<Result>(_ body: () -> Result) -> Result
}

/// The operating system this library runs on: see ``PlatformInterface`` for what it answers, and
/// the `Platform+…` files of this folder for how each OS does.
enum Platform {
  /// The current call stack, innermost first, up to `maximumDepth` frames: the frames `locating`
  /// accepts, located (see ``PlatformInterface/frames(of:kind:locating:)``). Nil where the
  /// platform cannot walk or symbolicate the stack.
  static func callStack(maximumDepth: Int, locating: (_ symbolName: String) -> Bool) -> [Frame]? {
    var addresses: [UInt] = []
    addresses.reserveCapacity(maximumDepth)
    guard captureReturnAddresses(maximumDepth: maximumDepth, into: &addresses) > 0 else { return nil }
    return frames(of: addresses, kind: .returnAddress, locating: locating)
  }

  /// What an address handed to ``PlatformInterface/frames(of:kind:locating:)`` is.
  enum AddressKind: Sendable {
    /// Where a call returns to: located by the instruction before it, the call.
    case returnAddress
    /// The start of the function an async function resumes in after an `await` (its "resume
    /// point"): located as it is, at the `await`.
    case asyncResumePoint
  }

  /// What a thread is doing, as far as the platform can tell.
  enum ThreadState: Equatable, Sendable {
    /// On a CPU, or ready to run.
    case running
    /// Asleep in the kernel: waiting on a lock, a semaphore, I/O or a timer.
    case waiting
    /// Stopped: by a debugger (Linux `t`; Darwin suspended), or by a signal (Linux `T`).
    case stopped
    /// The platform cannot say (no such thread any more, an unreadable state, or an OS that does
    /// not tell).
    case unknown
  }

  /// One frame of a call stack.
  struct Frame: Equatable, Sendable {
    /// The mangled name of the frame's function (`$s5MyApp4loadyyF`).
    var symbolName: String
    /// Where in the source the frame is, when it was located and the debug information says.
    var location: SourceLocation?
  }

  /// A line of source, as debug information records it.
  struct SourceLocation: Equatable, Sendable {
    /// The file's path, as the compiler recorded it (absolute, or relative to the package).
    var path: String
    /// 1-based; 0 when the compiler recorded no line.
    var line: Int
    /// 1-based; 0 when the compiler recorded no column.
    var column: Int
  }
}
