import Effects
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One serial thread that runs every job of a virtual-time scope, one at a time, and knows when
/// none is left: the basis of `await TestScheduler.advance(by:)`'s exactness.
///
/// Jobs arrive through ``GlobalEnqueueHook``. Because they all run here, in arrival order, "every
/// task has reached its next suspension" is simply "the queue is empty and no job is running",
/// which ``whenIdle()`` waits for without polling, yielding, or reading a clock.
///
/// Every stored `var` is guarded by `condition`.
final class VirtualExecutor: @unchecked Sendable {
  /// The executor of the scope the current task is in.
  @TaskLocal static var scope: VirtualExecutor?

  private static let threadKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// The executor whose thread this is, if any.
  static var onCurrentThread: VirtualExecutor? {
    guard let pointer = pthread_getspecific(threadKey) else { return nil }
    return Unmanaged<VirtualExecutor>.fromOpaque(pointer).takeUnretainedValue()
  }

  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var head = 0
  private var running = false
  private var closed = false
  private var resumingWaiters = false
  private var activity: UInt64 = 0
  /// Tasks waiting for the queue to empty, and whether each waits on the main actor.
  private var idleWaiters: [(continuation: UnsafeContinuation<Void, Never>, onMainActor: Bool)] = []
  /// Starts the executor's thread.
  init() {
    let thread = Thread { [self] in loop() }
    thread.name = "swift-effects.VirtualExecutor"
    thread.stackSize = 8 << 20
    thread.start()
  }

  /// Queues `job`; false once the executor is closed (the caller then hands it to the global
  /// executor).
  func enqueue(_ job: UnownedJob) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard !closed else { return false }
    jobs.append(job)
    // Resuming an idle waiter is the waiter's own turn, not new work.
    if !(resumingWaiters && VirtualExecutor.onCurrentThread === self) { activity &+= 1 }
    condition.signal()
    return true
  }

  /// How many jobs have been queued so far (not counting idle waiters being resumed).
  var activityCount: UInt64 {
    condition.lock()
    defer { condition.unlock() }
    return activity
  }

  /// Returns once no job is queued or running (other than the caller's own, which suspends).
  func whenIdle(isolation: isolated (any Actor)? = #isolation) async {
    let onMainActor = isolation === MainActor.shared
    await withUnsafeContinuation(isolation: isolation) { (continuation: UnsafeContinuation<Void, Never>) in
      condition.lock()
      if head == jobs.count, !running {
        condition.unlock()
        continuation.resume()
        return
      }
      idleWaiters.append((continuation, onMainActor))
      condition.signal()
      condition.unlock()
    }
  }

  /// Stops taking jobs; the thread ends once the queue is empty.
  func close() {
    condition.lock()
    closed = true
    condition.signal()
    condition.unlock()
  }

  private func loop() {
    pthread_setspecific(Self.threadKey, Unmanaged.passUnretained(self).toOpaque())
    condition.lock()
    while true {
      if head < jobs.count {
        let job = jobs[head]
        head += 1
        if head == jobs.count {
          jobs.removeAll(keepingCapacity: true)
          head = 0
        }
        running = true
        condition.unlock()
        GlobalEnqueueHook.run(job)
        condition.lock()
        running = false
      } else if !idleWaiters.isEmpty {
        let waiters = idleWaiters
        idleWaiters = []
        resumingWaiters = true
        condition.unlock()
        for waiter in waiters {
          if waiter.onMainActor {
            // Resumed from the main queue, so the main actor sees it in order (and the thread
            // sanitizer sees the hand-over, which it does not for a resume from this thread).
            DispatchQueue.main.async { waiter.continuation.resume() }
          } else {
            waiter.continuation.resume()
          }
        }
        condition.lock()
        resumingWaiters = false
      } else if closed {
        break
      } else {
        condition.wait()
      }
    }
    condition.unlock()
    pthread_setspecific(Self.threadKey, nil)
  }
}
