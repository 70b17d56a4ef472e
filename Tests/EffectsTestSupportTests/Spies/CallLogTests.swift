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

  @Test func assertCallsPassesWithExactlyTheLoggedCalls() {
    let log = CallLog()
    let save = Spy<String, Void>("tokenStore.save", log: log)
    let track = Spy<String, Void>("events.track", log: log)
    save.record("abc")
    track.record("login")
    log.assertCalls([.init("tokenStore.save", "abc"), .init("events.track", "login")])
    log.assertNoUnverifiedCalls()
  }

  @Test func assertCallsReportsADiffAcrossCollaborators() {
    let log = CallLog()
    let save = Spy<String, Void>("tokenStore.save", log: log)
    let track = Spy<String, Void>("events.track", log: log)
    track.record("login")
    save.record("abc")
    let line = #line + 2
    let issues = withCapturedIssues {
      log.assertCalls([.init("tokenStore.save", "abc"), .init("events.track", "login")])
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          CallLog calls differ: got 2, expected 2; first difference at index 0:
            + [0] events.track(login)   (unexpected)
              [1] tokenStore.save(abc)
            - [1] events.track(login)   (missing)
          """,
          line: line
        )
      ]
    )
  }

  @Test func assertCallsCountPassesWithTheRightCountAndVerifiesEveryEntry() {
    let log = CallLog()
    log.assertCalls(count: 0)
    log.record("tokenStore.save", "abc")
    log.record("events.track", "login")
    log.assertCalls(count: 2)
    log.assertNoUnverifiedCalls()
  }

  @Test func assertCallsCountReportsTheEntries() {
    let log = CallLog()
    log.record("tokenStore.save", "abc")
    let line = #line + 2
    let issues = withCapturedIssues {
      log.assertCalls(count: 2)
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          CallLog logged 1 call, expected 2 calls:
            [0] tokenStore.save(abc)
          """,
          line: line
        )
      ]
    )
  }

  @Test func assertCallsCountRejectsANegativeCount() {
    let log = CallLog()
    let line = #line + 2
    let issues = withCapturedIssues {
      log.assertCalls(count: -2)
    }.issues
    #expect(
      issues == [
        CapturedIssue("CallLog cannot have logged -2 calls. Pass assertCalls(count:) a count of 0 or more.", line: line)
      ]
    )
  }

  @Test func assertNoCallsPassesOnAnEmptyLog() {
    CallLog().assertNoCalls()
  }

  @Test func assertNoCallsReportsTheEntries() {
    let log = CallLog()
    let refresh = Spy<Void, Void>("session.refresh", log: log)
    refresh.record()
    log.record("events.track", "login")
    let line = #line + 2
    let issues = withCapturedIssues {
      log.assertNoCalls()
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          CallLog logged 2 calls, expected none:
            [0] session.refresh
            [1] events.track(login)
          """,
          line: line
        )
      ]
    )
  }

  @Test func assertCallsIsCumulativeUntilTheLogIsCleared() {
    let log = CallLog()
    log.record("api.fetch", "1")
    log.assertCalls([.init("api.fetch", "1")])
    log.record("api.fetch", "2")
    log.assertCalls([.init("api.fetch", "1"), .init("api.fetch", "2")])
    log.clear()
    log.assertNoCalls()
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
    save.assertCalls(count: 1)
    let line = #line + 2
    let issues = withCapturedIssues {
      log.assertNoUnverifiedCalls()
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          CallLog has 2 calls that no assertion verified:
            [1] events.track(login)
            [2] events.track(logout)
          Assert them (a spy assertion, or assertCalls), or fix the code that made them.
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
      track.assertNoCalls()
    }.issues
    #expect(issues.count == 1)
    log.assertNoUnverifiedCalls()
  }
}
