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

  /// A recorder frees what it forgets after unlocking: a value whose `deinit` records on the same
  /// recorder (a screen model that tracks its own closing) is recorded, not a hang.
  @Test func aClearedSpyFreesItsInputsOutsideItsLock() {
    let track = Spy<ScreenEvent, Void>("events.track")
    track.record(.opened(Screen(closing: { track.record(.closed) })))
    track.clear()
    #expect(track.calls == [.closed])
  }

  @Test func aStubReplacedFreesWhatItCapturedOutsideTheSpysLock() {
    let fetch = Spy<String, Int>("api.fetch")
    let screen = Screen(closing: { _ = try? fetch("closed") })
    fetch.stub { _ in
      _ = screen
      return 1
    }
    _ = consume screen
    fetch.stub(returning: 2)
    #expect(fetch.calls == ["closed"])
  }

  @Test func aClearedObserverFreesItsValuesOutsideItsLock() {
    let observer = TestObserver<ScreenEvent, Never>()
    observer.send(.opened(Screen(closing: { observer.send(.closed) })))
    observer.clear()
    observer.assertValues([.closed])
  }

  @Test func aClearedRecordingInterpreterFreesItsEffectsOutsideItsLock() throws {
    let recorder = RecordingInterpreter<ScreenEvent>()
    let interpreter = recorder.interpreter
    try interpreter.perform([.opened(Screen(closing: { try? interpreter.perform([.closed]) }))])
    recorder.clear()
    recorder.assertEffects([.closed])
  }
}

/// What a screen model tracks.
private enum ScreenEvent: Equatable, Sendable {
  case opened(Screen)
  case closed
}

/// A screen model that says it closed when it is freed.
private final class Screen: Equatable, Sendable {
  let closing: @Sendable () -> Void

  init(closing: @escaping @Sendable () -> Void) {
    self.closing = closing
  }

  deinit { closing() }

  static func == (lhs: Screen, rhs: Screen) -> Bool { lhs === rhs }
}
