import Effects
import Foundation

// The serial lane of a virtual-time scope: one thread running the scope's nonisolated jobs one at
// a time, and what happens when a job blocks it (the watchdog replaces the thread).

@available(EffectsVirtualTime, *)
extension VirtualExecutor {
  /// Runs the lane on a thread of its own: one parked by an earlier scope, or a new one.
  func startLaneThread(generation: Int) {
    ParkedThreads.lanes.run { [self] in loop(generation: generation) }
  }

  // MARK: The serial lane

  /// One job of the scope has run: wake the waiters when it was the last.
  func finished() {
    condition.lock()
    let ready = finishedLocked()
    condition.unlock()
    wake(ready)
  }

  /// What to wake once a job has run: the tasks waiting for the scope to be idle, when it was the
  /// last job; or, when it was the last and nothing waits, the scope's driver if it sleeps on the
  /// scope's scheduler — stranded, since only it could advance.
  struct Ready {
    var waiters: [IdleWaiter] = []
    var stranded: SleepingDriver?

    var isEmpty: Bool { waiters.isEmpty && stranded == nil }
  }

  /// Counts one job of the scope as run, returning what to wake (``wake(_:)``) when it was the
  /// last. Called with the lock held.
  func finishedLocked() -> Ready {
    inFlight -= 1
    finishedJobs &+= 1
    guard inFlight == 0 else { return Ready() }
    guard idleWaiters.isEmpty else {
      defer { idleWaiters = [] }
      return Ready(waiters: idleWaiters)
    }
    guard let stranded = sleepingDriver, !closed else { return Ready() }
    sleepingDriver = nil
    return Ready(stranded: stranded)
  }

  /// Wakes what ``finishedLocked()`` returned; called without the lock. What it wakes is woken
  /// as the scope's own work (on behalf of its lane), not as an escape from outside, whatever
  /// thread counted the last job: the watchdog's, or one that ran work outside the scope.
  func wake(_ ready: Ready) {
    guard !ready.isEmpty else { return }
    let previous = Self.lane.value
    Self.lane.set(Unmanaged.passUnretained(self).toOpaque())
    defer { Self.lane.set(previous) }
    for waiter in ready.waiters {
      waiter.resume(returning: true)
    }
    ready.stranded?.wake()
  }

  /// How many hops of one task the serial lane runs in a row while other jobs of the scope wait
  /// (see ``continueRunningTask(_:)``): a task's turn, as a thread's on a real executor. A task
  /// polling in a loop of hops for another task's flag starved it, and hung the test: the hops
  /// counted as progress, so neither the watchdog nor an advance's patience stepped in (#40).
  static let hopsInARow = 64

  func loop(generation: Int) {
    Self.lane.set(Unmanaged.passUnretained(self).toOpaque())
    let taskExecutor = asUnownedTaskExecutor()
    let thread = Platform.currentThread()
    condition.lock()
    laneThread = thread
    while generation == laneGeneration {
      let releases = !endedTasks.isEmpty
      if releases || head < jobs.count {
        laneJobsStarted &+= 1
        laneJobRunning = true
        laneJobReleases = releases
        if releases {
          releaseEndedTasksLocked()
        } else {
          var job = jobs[head]
          head += 1
          if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
          }
          var hops = 0
          while true {
            laneTask = ScopeTasks.isTask(job) ? ScopeTasks.address(of: job) : 0
            condition.unlock()
            // Run as the current task executor, so that `Task.yield()` comes back here.
            job.runSynchronously(on: taskExecutor)
            condition.lock()
            laneTask = 0
            // The task hopped from its job to the global executor: it goes on here, as the same
            // job in flight (see `continueRunningTask`)...
            guard generation == laneGeneration, let next = laneTaskNext else { break }
            laneTaskNext = nil
            hops += 1
            // ...for `hopsInARow` hops while other jobs wait, then behind them, as a job of its
            // own: a task that polls in a loop of hops must let the task it waits for run.
            if hops >= Self.hopsInARow, head < jobs.count {
              jobs.append(next)
              inFlight += 1
              break
            }
            finishedJobs &+= 1
            laneJobsStarted &+= 1
            job = next
          }
        }
        // A thread replaced while its job was blocked stops: a new thread runs the lane since,
        // and the job was counted done when it was given up on.
        if generation != laneGeneration { break }
        laneJobRunning = false
        let ready = finishedLocked()
        if !ready.isEmpty {
          condition.unlock()
          wake(ready)
          condition.lock()
        }
      } else if closed {
        break
      } else {
        condition.wait()
      }
    }
    condition.unlock()
    Self.lane.set(nil)
  }

  // MARK: A job that blocks the lane

  /// What the watchdog sees of the serial lane: how many jobs it has started, whether one is
  /// running, and its thread.
  func laneSnapshot() -> (started: UInt64, running: Bool, thread: Platform.Thread?) {
    condition.lock()
    defer { condition.unlock() }
    // A blocked job matters only when something waits behind it: a queued job, or an advance.
    let waitedFor = head < jobs.count || !idleWaiters.isEmpty
    return (laneJobsStarted, laneJobRunning && waitedFor && !closed, laneThread)
  }

  /// Gives up on the lane's running job — job `number`, which has not returned for `duration` —
  /// when it is still the one running: a new thread runs the scope's other jobs (so a job waiting
  /// for one of them is released), and the blocked one is reported (when `reported`). The blocked
  /// job counts as done from then on, so that a wait for the scope goes on; its thread ends when
  /// it returns.
  func replaceBlockedLane(job number: UInt64, after duration: Duration, waiting: Bool, reported: Bool) {
    condition.lock()
    guard !closed, laneJobRunning, laneJobsStarted == number else {
      condition.unlock()
      return
    }
    laneGeneration += 1
    laneJobRunning = false
    // The blocked job's task no longer goes on on the lane when it hops: its hop is queued. One
    // taken just before is queued too, as a job in flight of its own.
    laneTask = 0
    if let next = laneTaskNext {
      laneTaskNext = nil
      jobs.append(next)
      inFlight += 1
    }
    let generation = laneGeneration
    if reported {
      recordBlockedLane(after: duration, waiting: waiting, releasing: laneJobReleases)
    }
    // The blocked job no longer counts as in flight: an advance waiting for the scope goes on,
    // and says why (the escape above). Its thread ends when it returns, counting nothing.
    let ready = finishedLocked()
    condition.unlock()
    wake(ready)
    startLaneThread(generation: generation)
  }

  /// Records the job given up on as an escape. Called with the lock held.
  func recordBlockedLane(after duration: Duration, waiting: Bool, releasing: Bool) {
    let description =
      if releasing {
        """
        freeing the results of tasks the scope started, once they had ended, took more than \
        \(duration.literal) (a result's deinit that blocks, or waits for another task); the \
        scope's other tasks went on on a new thread meanwhile, so they no longer run one at a \
        time. A deinit should not wait: start a task for what it must do
        """
      } else if waiting {
        """
        a task of the scope blocked the scope's thread for more than \(duration.literal) (a semaphore, \
        a lock held across an await, DispatchQueue.sync onto work of the scope, or a real \
        Thread.sleep); the scope's other tasks went on on a new thread meanwhile, so they no \
        longer run one at a time. Await instead of blocking: an AsyncStream, a continuation, or \
        the scheduler's sleep
        """
      } else {
        """
        a job of the scope ran for more than \(duration.literal) without suspending (a busy loop \
        waiting for another task?); the scope's other tasks went on on a new thread meanwhile, \
        so they no longer run one at a time. Await what the loop waits for instead
        """
      }
    escapes.append(Escape(description: description, during: lastDrive))
  }

}
