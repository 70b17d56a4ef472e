import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Testing

/// Every recorder forgets what it recorded with `clear()`, and keeps what configures it.
@Suite struct ClearTests {
  @Test func aClearedSpyForgetsItsCallsAndKeepsItsStub() throws {
    let fetch = Spy<String, Int>("api.fetch")
    fetch.stub(returning: 7)
    _ = try fetch("a")
    _ = try fetch("b")
    fetch.clear()
    #expect(fetch.calls.count == 0)
    #expect(fetch.lastCall == nil)
    #expect(try fetch("c") == 7)
    #expect(fetch.calls == ["c"])
    fetch.assertCalls(["c"])
  }

  @Test func aClearedLogForgetsItsEntries() {
    let log = CallLog()
    log.record("api.fetch", "42")
    log.clear()
    #expect(log.entries.isEmpty)
    log.record("api.fetch", "43")
    log.assertCalls([.init("api.fetch", "43")])
    log.assertNoUnverifiedCalls()
  }

  /// A spy keeps the log index of each of its calls to mark them verified. After the log is
  /// cleared, verifying an old call must not mark the entry that took its place.
  @Test func verifyingACallClearedFromTheLogMarksNothingElse() {
    let log = CallLog()
    let first = Spy<String, Void>("first", log: log)
    let second = Spy<String, Void>("second", log: log)
    first.record("a")
    log.clear()
    second.record("b")
    first.assertCalls(["a"])
    let line = #line + 1
    let issues = withCapturedIssues { log.assertNoUnverifiedCalls() }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          CallLog has 1 call that no assertion verified:
            [0] second(b)
          Assert them (a spy assertion, or assertCalls), or fix the code that made them.
          """,
          line: line
        )
      ]
    )
  }

  @Test func aClearedObserverIsAsNew() {
    let observer = TestObserver<Int, Never>()
    observer.send(1)
    observer.complete()
    observer.clear()
    #expect(observer.values.isEmpty)
    #expect(!observer.didComplete)
    observer.send(2)
    observer.assertValues([2])
  }

  @Test func aClearedRecordingInterpreterForgetsWhatItRecorded() throws {
    let recorder = RecordingInterpreter<Effect>()
    try recorder.interpreter.perform([.print("set-up")])
    recorder.clear()
    #expect(recorder.effects.isEmpty)
    try recorder.interpreter.perform([.print("the step")])
    recorder.assertEffects([.print("the step")])
  }
}
