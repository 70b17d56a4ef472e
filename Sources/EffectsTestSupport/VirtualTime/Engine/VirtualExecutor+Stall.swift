import Effects
import Foundation

// A test that awaits something while every task of its scope sleeps on virtual time — most often
// `await task.value` on a task asleep past the last advance — waits for ever: only the test moves
// time. The watchdog finds the scope so, the scope moves time to the next deadline itself, and the
// test is told where it waited (#42). This file is the watchdog's look at a scope; what the scope
// keeps of a stall, and hands the test to report, is in VirtualExecutor.swift.

@available(EffectsVirtualTime, *)
extension VirtualExecutor {
  /// How long the scope must look stalled before it moves time: a second (five under the thread
  /// sanitizer) the first time, since the test may be waiting for something real; one look after
  /// that, for the next sleep of the same wait.
  private var stallPatience: Duration {
    stallsMoved == 0 ? LaneWatchdog.waitingLimit : LaneWatchdog.interval
  }

  /// One look of the watchdog: whether the scope is stalled — its test suspended waiting on a
  /// task or a continuation, no job of the scope queued or running, no advance under way, nothing
  /// finished since the last look — and, once it has been for ``stallPatience``, moves time to
  /// the next deadline through ``stalledScheduler``. `afterStop`: the process was stopped since the last
  /// look (a debugger), which no stall is charged for.
  func judgeStall(elapsed: Duration, afterStop: Bool) {
    condition.lock()
    // A test in a real sleep of its own waits for real time, not for the scope: left alone (the
    // sleep is reported as such).
    let quiet =
      !closed && inFlight == 0 && idleWaiters.isEmpty && sleepingDriver == nil && finishedJobs == stallMark
      && !afterStop && !escapes.contains(where: \.byDriver)
    stallMark = finishedJobs
    guard quiet, let driver else {
      stalledFor = .zero
      condition.unlock()
      return
    }
    stalledFor += elapsed
    let due = stalledFor >= stallPatience
    let scheduler = stalledScheduler
    condition.unlock()
    guard due, ScopeTasks.isWaitingOnADependency(driver), !Platform.isTraced else {
      if due { resetStall() }
      return
    }
    condition.lock()
    if stall == nil { stall = Stall() }
    condition.unlock()
    let moved = movingTime(scheduler)
    condition.lock()
    stalledFor = .zero
    if let moved {
      stallsMoved += 1
      if stall?.first == nil { stall?.first = moved }
      stall?.times += 1
    } else if stall?.times == 0 {
      stall = nil
    }
    condition.unlock()
  }

  /// Moves time on `scheduler` as the scope's own work (on behalf of its lane), so that what it
  /// resumes is queued as the scope's, not as an escape from outside.
  private func movingTime(_ scheduler: TestScheduler?) -> MovedForStall? {
    let previous = Self.lane.value
    Self.lane.set(Unmanaged.passUnretained(self).toOpaque())
    defer { Self.lane.set(previous) }
    return scheduler?.moveTimeForStalledTest()
  }

  private func resetStall() {
    condition.lock()
    stalledFor = .zero
    condition.unlock()
  }
}
