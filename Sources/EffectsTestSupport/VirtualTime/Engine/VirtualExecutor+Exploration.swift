import Dispatch

// An explored scope (see `Exploration`): one job of the scope runs at a time, on either lane, and
// the scope's `ScheduleChooser` picks which ready job runs next. A job becomes ready only while
// another runs (or while the test's own code runs, which is itself a job of the scope), so the
// jobs ready at each turn depend only on the choices made before it: the same seed gives the same
// order, run after run.

@available(EffectsVirtualTime, *)
extension VirtualExecutor {
  /// Gives the turn to a ready job, when none holds it: the chooser picks among the serial lane's
  /// queued jobs then the main lane's, in the order they were queued. A job chosen for the main
  /// lane is sent to the main queue; one for the serial lane is handed to its thread. Once the
  /// scope is closed, jobs still queued run in the order they came. Called with the lock held.
  func chooseNextLocked() {
    guard !turnHeld else { return }
    let global = jobs.count - head
    let main = mainJobs.count - mainHead
    guard global + main > 0 else { return }
    var index = 0
    if !closed, global + main > 1, var chooser {
      var tasks: [UInt64?] = []
      tasks.reserveCapacity(global + main)
      for job in jobs[head...] { tasks.append(Self.exploredKey(of: job)) }
      for next in mainJobs[mainHead...] { tasks.append(Self.exploredKey(of: next.job)) }
      index = chooser.choose(among: tasks)
      self.chooser = chooser
    }
    turnHeld = true
    if index < global {
      laneChosen = jobs.remove(at: head + index)
      condition.broadcast()
    } else {
      let next = mainJobs.remove(at: mainHead + index - global)
      DispatchQueue.main.async { [self] in runChosenMainJob(next) }
    }
  }

  /// What the chooser knows a job by: its task's runtime id (ids are never reused, unlike
  /// addresses), or nil for a job that is not a task.
  private static func exploredKey(of job: UnownedJob) -> UInt64? {
    ScopeTasks.isTask(job) ? ScopeTasks.id(of: job) : nil
  }

  /// Releases the turn, and gives it to the next ready job.
  func passTheTurn() {
    condition.lock()
    turnHeld = false
    chooseNextLocked()
    condition.unlock()
  }

  /// Runs a main-actor job the chooser picked, then passes the turn: after the job has counted as
  /// run, so that what its end wakes (a wait for the scope) is ready at the next choice.
  private func runChosenMainJob(_ next: MainJob) {
    let previous = Self.lane.value
    Self.lane.set(Unmanaged.passUnretained(self).toOpaque())
    runMainJob(next)
    Self.lane.set(previous)
    passTheTurn()
  }

  /// The serial lane of an explored scope: it runs the job the chooser hands it, one per turn
  /// (releasing ended tasks first, within that turn), then passes the turn.
  func exploringLoop(generation: Int) {
    Self.lane.set(Unmanaged.passUnretained(self).toOpaque())
    let taskExecutor = asUnownedTaskExecutor()
    let thread = Platform.currentThread()
    condition.lock()
    laneThread = thread
    while generation == laneGeneration {
      guard let job = laneChosen else {
        if closed, head == jobs.count { break }
        condition.wait()
        continue
      }
      laneChosen = nil
      laneJobsStarted &+= 1
      laneJobRunning = true
      if !endedTasks.isEmpty {
        laneJobReleases = true
        releaseEndedTasksLocked()
        laneJobReleases = false
      }
      laneTask = ScopeTasks.isTask(job) ? ScopeTasks.address(of: job) : 0
      condition.unlock()
      job.runSynchronously(on: taskExecutor)
      condition.lock()
      laneTask = 0
      // A thread replaced while its job was blocked stops: the job was counted done, and the turn
      // passed, when it was given up on.
      if generation != laneGeneration { break }
      laneJobRunning = false
      let ready = finishedLocked()
      if !ready.isEmpty {
        condition.unlock()
        wake(ready)
        condition.lock()
      }
      turnHeld = false
      chooseNextLocked()
    }
    condition.unlock()
    Self.lane.set(nil)
  }

  /// Notes, under exploration, that a failure was reported from one of the scope's tasks. Without
  /// the lock: a report may be raised where the scope's lock is held.
  func noteFailureReported() {
    guard explores else { return }
    failureReported.store(true, ordering: .relaxed)
  }

  /// The chooser as the scope's last job left it: what the run chose.
  var exploredSchedule: ScheduleChooser? {
    condition.lock()
    defer { condition.unlock() }
    chooser?.ran = true
    chooser?.failureReported = failureReported.load(ordering: .relaxed)
    return chooser
  }
}
