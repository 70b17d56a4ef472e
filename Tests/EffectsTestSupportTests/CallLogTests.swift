import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Testing

@Suite struct CallLogTests {
  @Test func spiesSharingALogRecordTheOrderAcrossThem() {
    let log = CallLog()
    let save = Spy<String, Void>("tokenStore.save", log: log)
    let track = Spy<String, Void>("events.track", log: log)
    let refresh = Spy<Void, Void>("session.refresh", log: log)

    save.record("abc")
    track.record("login")
    refresh.record()

    #expect(
      log.entries == [
        CallLog.Entry("tokenStore.save", "abc"),
        CallLog.Entry("events.track", "login"),
        CallLog.Entry("session.refresh"),
      ]
    )
    #expect(log.entries.map(\.name) == ["tokenStore.save", "events.track", "session.refresh"])
    #expect(log.entries.map(\.description) == ["abc", "login", ""])
  }

  @Test func recordLogsACallByHand() {
    let log = CallLog()
    log.record("apiClient.fetchUser", "42")
    log.record("apiClient.logout")
    #expect(log.entries == [.init("apiClient.fetchUser", "42"), .init("apiClient.logout")])
  }

  @Test func assertSequencePassesWithExactlyTheLoggedCalls() {
    let log = CallLog()
    let save = Spy<String, Void>("tokenStore.save", log: log)
    let track = Spy<String, Void>("events.track", log: log)
    save.record("abc")
    track.record("login")
    log.assertSequence([.init("tokenStore.save", "abc"), .init("events.track", "login")])
    log.assertNoUnverifiedCalls()
  }

  @Test func assertSequenceReportsADiffAcrossCollaborators() {
    let log = CallLog()
    let save = Spy<String, Void>("tokenStore.save", log: log)
    let track = Spy<String, Void>("events.track", log: log)
    track.record("login")
    save.record("abc")
    let line = #line + 2
    let issues = withCapturedIssues {
      log.assertSequence([.init("tokenStore.save", "abc"), .init("events.track", "login")])
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          The call log differs from the expected sequence: expected 2, got 2; first difference at index 0:
            + [0] events.track(login)   (unexpected)
              [1] tokenStore.save(abc)
            - [1] events.track(login)   (missing)
          """,
          line: line
        )
      ]
    )
  }

  @Test func assertNoUnverifiedCallsPassesOnAnEmptyLog() {
    CallLog().assertNoUnverifiedCalls()
  }

  @Test func assertNoUnverifiedCallsReportsWhatNoAssertionChecked() {
    let log = CallLog()
    let save = Spy<String, Void>("tokenStore.save", log: log)
    let track = Spy<String, Void>("events.track", log: log)
    save.record("abc")
    track.record("login")
    track.record("logout")
    save.assertCalled(times: 1)
    let line = #line + 2
    let issues = withCapturedIssues {
      log.assertNoUnverifiedCalls()
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          2 calls were logged but not verified by any assertion:
            [1] events.track(login)
            [2] events.track(logout)
          Assert them (a spy assertion, or assertSequence), or fix the code that made them.
          """,
          line: line
        )
      ]
    )
  }

  @Test func aFailedSpyAssertionStillVerifiesTheCallsItChecked() {
    let log = CallLog()
    let track = Spy<String, Void>("events.track", log: log)
    track.record("login")
    let issues = withCapturedIssues {
      track.assertNotCalled()
    }.issues
    #expect(issues.count == 1)
    log.assertNoUnverifiedCalls()
  }
}
