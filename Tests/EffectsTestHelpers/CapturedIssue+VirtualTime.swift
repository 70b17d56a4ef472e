package import EffectsTestSupport

extension CapturedIssue {
  /// What a virtual-time scope reports at `line` when `escape` reached it from outside, in full.
  package static func inexactVirtualTime(_ escape: String, fileID: String = #fileID, line: Int) -> CapturedIssue {
    CapturedIssue(
      """
      TestScheduler could not keep virtual time exact here: \(escape). Work resumed from outside the scope arrives \
      at a moment that depends on real time, so what the test saw after this line may change from run to run. Sleep \
      on the scheduler (environment.scheduler, environment.continuousClock) and replace real I/O with a test double.
      """,
      fileID: fileID,
      line: line
    )
  }

  /// Whether `issues` are what a scope reports at `line` when a task of it waited for real on
  /// `ContinuousClock` (its length elided) at `sleptAt`: the wait, and — unless the timer fired
  /// before the task suspended — the task resumed from outside the scope. The line that slept is
  /// named where stacks are symbolicated (Linux).
  package static func areARealWait(
    _ issues: [CapturedIssue],
    fileID: String = #fileID,
    line: Int,
    sleptAt: Int
  ) -> Bool {
    #if os(Linux)
    let site = ", at \(fileID):\(sleptAt)"
    #else
    let site = ""
    #endif
    let wait = inexactVirtualTime(
      """
      a task of the scope started a real, wall-clock wait of about .milliseconds(…) on ContinuousClock (Task.sleep \
      or a real clock's sleep) instead of sleeping on the TestScheduler\(site)
      """,
      fileID: fileID,
      line: line
    )
    let resumed = inexactVirtualTime(resumedFromOutside, fileID: fileID, line: line)
    let seen = issues.map(\.measuredWaitElided)
    return seen == [wait] || seen == [wait, resumed]
  }

  /// The escape of a task resumed from outside its scope, as ``inexactVirtualTime(_:fileID:line:)``
  /// names it.
  package static let resumedFromOutside = """
    a task of the scope was resumed from outside it (by a Task.yield() inside an actor, an actor with its own \
    executor, a real Task.sleep, I/O, a continuation resumed on another thread or queue, or a task that is not part \
    of the scope)
    """

  /// This issue with the measured length of a real wait (`a real, wall-clock wait of about
  /// .milliseconds(48) on …`) written as `.milliseconds(…)`. The length is what was left of the
  /// wait when the scope saw it, so it varies from run to run; every other part of the text is
  /// compared exactly.
  package var measuredWaitElided: CapturedIssue {
    var issue = self
    issue.message = message.replacing(
      /wait of about \.milliseconds\(\d+\) on/,
      with: "wait of about .milliseconds(…) on"
    )
    return issue
  }
}
