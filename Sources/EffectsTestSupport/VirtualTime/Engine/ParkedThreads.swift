import Effects
import Foundation

/// Threads that run one piece of long-running work each, kept parked when it returns for the next
/// piece: the threads of scopes' serial lanes (``lanes``).
///
/// A scope starts its lane's thread with the lane's first job: a `@MainActor` test meets one as
/// soon as it awaits anything nonisolated (`await task.value`, whose getter is nonisolated, is
/// enough). Starting and ending a thread for each such scope cost about 22 µs of the 124 µs that
/// ten awaited steps take in a scope (`steps.1e1`, a size run by hand; `steps.1e3.effects` started
/// 107 threads in 101 scopes, and starts 6 now); handing the lane to a thread parked by an
/// earlier scope costs one wake-up. A thread whose lane was given up on (its job blocked) parks
/// when that job returns, or never. No more than `keptIdle` threads park at once; the others end.
///
/// What code under test leaves on a lane's thread (its `threadDictionary`, a pthread key, its
/// name or priority) is seen by the scopes the thread serves next, as on the threads of Swift's own
/// global executor, which every test shares. The lane's own thread-specific state is set and
/// cleared by each scope (`VirtualExecutor.lane`, `VirtualExecutor.resumption`).
final class ParkedThreads: Sendable {
  /// The threads of scopes' serial lanes: enough parked for the scopes of the tests that run in
  /// parallel on this machine.
  static let lanes = ParkedThreads(
    name: "swift-effects.VirtualExecutor",
    keptIdle: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
  )

  /// One thread, and the work it is given next.
  private final class Worker: @unchecked Sendable {
    let condition = NSCondition()
    /// Guarded by `condition`.
    var work: (@Sendable () -> Void)?
  }

  private let name: String
  private let keptIdle: Int
  /// For tests: called on a thread each time its work has returned, with whether it parked.
  private let afterWork: (@Sendable (_ parked: Bool) -> Void)?
  /// The parked threads, the last parked first.
  private let idle = Locked<[Worker]>([])

  init(name: String, keptIdle: Int, afterWork: (@Sendable (_ parked: Bool) -> Void)? = nil) {
    self.name = name
    self.keptIdle = keptIdle
    self.afterWork = afterWork
  }

  /// How many threads are parked now.
  var parkedCount: Int {
    idle.withLock { $0.count }
  }

  /// Runs `work` on a parked thread, or on a new one (8 MB of stack) when none is parked.
  func run(_ work: @escaping @Sendable () -> Void) {
    if let worker = idle.withLock({ $0.popLast() }) {
      worker.condition.lock()
      worker.work = work
      worker.condition.signal()
      worker.condition.unlock()
      return
    }
    let worker = Worker()
    worker.work = work
    let thread = Thread { [self] in serve(worker) }
    thread.name = name
    thread.stackSize = 8 << 20
    thread.start()
  }

  /// A thread's life: run what it was given, park, and run the next, until too many are parked.
  private func serve(_ worker: Worker) {
    while true {
      worker.condition.lock()
      while worker.work == nil { worker.condition.wait() }
      let work = worker.work
      worker.work = nil
      worker.condition.unlock()
      // In a pool of its own: the thread outlives the work, and used to drain what it
      // autoreleased by exiting.
      Platform.withAutoreleasePool { work?() }
      let parked = idle.withLock { idle in
        guard idle.count < keptIdle else { return false }
        idle.append(worker)
        return true
      }
      afterWork?(parked)
      guard parked else { return }
    }
  }
}
