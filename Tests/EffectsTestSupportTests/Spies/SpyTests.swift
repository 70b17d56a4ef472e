import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Testing

private struct Event: Equatable, Sendable {
  var name: String
  var properties: [String: String] = [:]
}

private struct Offline: Error, Equatable {}

private protocol TokenStore {
  func save(_ token: String) throws
}

/// A double of a throwing method, written the way the docs say.
private struct TokenStoreSpy: TokenStore {
  let saveSpy = Spy<String, Void>("tokenStore.save")
  func save(_ token: String) throws { try saveSpy(token) }
}

/// Code under test: it shows what went wrong when saving fails.
private func signIn(token: String, store: some TokenStore) -> String {
  do {
    try store.save(token)
    return "signed in"
  } catch {
    return "could not save: \(error)"
  }
}

@Suite struct SpyTests {
  // MARK: Recording

  @Test func aSpyRecordsEveryInputInOrder() {
    let spy = Spy<String, Void>("tokenStore.save")
    #expect(spy.calls.count == 0)
    #expect(spy.lastCall == nil)

    spy.record("a")
    spy.record("b")

    #expect(spy.calls == ["a", "b"])
    #expect(spy.calls.count == 2)
    #expect(spy.lastCall == "b")
    #expect(spy.name == "tokenStore.save")
  }

  @Test func aSpyWithoutInputIsCalledWithNoArgument() throws {
    let refresh = Spy<Void, Void>("model.refresh")
    refresh.record()
    refresh.record()
    #expect(refresh.calls.count == 2)

    let load = Spy<Void, String?>("tokenStore.load")
    load.stub(returning: "abc")
    #expect(try load() == "abc")
  }

  @Test func eightTasksCallingTenThousandTimesEachRecordEveryCall() async {
    let spy = Spy<Int, Void>("counter.increment")
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for index in 0..<10_000 { spy.record(task * 10_000 + index) }
        }
      }
    }
    let calls = spy.calls
    #expect(calls.count == 80_000)
    #expect(Set(calls) == Set(0..<80_000))
    for task in 0..<8 {
      let ofTask = calls.filter { $0 / 10_000 == task }
      #expect(ofTask == Array(task * 10_000..<(task + 1) * 10_000), "task \(task)'s calls keep their order")
    }
  }

  @Test func concurrentCallsLogInTheSameOrderTheSpyRecords() async throws {
    let log = CallLog()
    let spy = Spy<Int, Int>("square", log: log)
    spy.stub { $0 * $0 }
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for index in 0..<1_000 { _ = try? spy(task * 1_000 + index) }
        }
      }
    }
    #expect(log.entries == spy.calls.map { CallLog.Entry("square", "\($0)") })
    #expect(log.entries.count == 8_000)
  }

  // MARK: Calling

  @Test func tryOnAVoidSpyThrowsItsStubbedError() {
    let spy = Spy<String, Void>("tokenStore.save")
    spy.stub(throwing: Offline())
    #expect(throws: Offline()) { try spy("a") }
    #expect(spy.calls == ["a"])
  }

  @Test func tryOnAVoidSpyWithNoInputThrowsItsStubbedError() {
    let spy = Spy<Void, Void>("session.refresh")
    spy.stub(throwing: Offline())
    #expect(throws: Offline()) { try spy() }
    #expect(spy.calls.count == 1)
  }

  @Test func aDoubleOfAThrowingMethodHandsTheStubbedErrorToTheCodeUnderTest() {
    let store = TokenStoreSpy()
    store.saveSpy.stub(throwing: Offline())
    #expect(signIn(token: "abc", store: store) == "could not save: Offline()")
    store.saveSpy.assertCalls(["abc"])
  }

  @Test func aVoidSpyThrowsTheErrorsOfItsScriptAndOfAClosureStub() {
    let spy = Spy<String, Void>("tokenStore.save")
    spy.stub(script: [.success(()), .failure(Offline())])
    #expect(throws: Never.self) { try spy("a") }
    #expect(throws: Offline()) { try spy("b") }
    spy.assertScriptConsumed()

    spy.stub { token in if token.isEmpty { throw Offline() } }
    #expect(throws: Never.self) { try spy("c") }
    #expect(throws: Offline()) { try spy("") }
    #expect(spy.calls == ["a", "b", "c", ""])
  }

  // MARK: Stubs

  @Test func aReturningStubAnswersEveryCall() throws {
    let spy = Spy<Int, String>("formatter.format")
    spy.stub(returning: "42")
    #expect(try spy(1) == "42")
    #expect(try spy(2) == "42")
  }

  @Test func aThrowingStubThrowsFromEveryCall() {
    let spy = Spy<String, Void>("tokenStore.save")
    spy.stub(throwing: Offline())
    #expect(throws: Offline()) { try spy("a") }
    #expect(throws: Offline()) { try spy("b") }
    #expect(spy.calls == ["a", "b"])
  }

  @Test func aClosureStubAnswersFromTheInput() throws {
    let spy = Spy<Int, Int>("square")
    spy.stub { $0 * $0 }
    #expect(try spy(3) == 9)
    spy.stub { _ in throw Offline() }
    #expect(throws: Offline()) { try spy(3) }
  }

  @Test func aClosureStubMayCallTheSpyAgain() throws {
    let spy = Spy<Int, Int>("factorial")
    spy.stub { [unowned spy] n in n <= 1 ? 1 : n * (try spy(n - 1)) }
    #expect(try spy(4) == 24)
    #expect(spy.calls == [4, 3, 2, 1])
  }

  @Test func aScriptAnswersEachOutputOnce() throws {
    let spy = Spy<Void, String?>("tokenStore.load")
    spy.stub(script: [nil, "abc"])
    #expect(try spy() == nil)
    #expect(try spy() == "abc")
    spy.assertScriptConsumed()
  }

  @Test func aScriptOfResultsCanThrow() throws {
    let spy = Spy<Int, String>("api.fetch")
    spy.stub(script: [.failure(Offline()), .success("profile")])
    #expect(throws: Offline()) { try spy(1) }
    #expect(try spy(1) == "profile")
    spy.assertScriptConsumed()
  }

  @Test func aCallPastTheEndOfTheScriptIsReportedAtThatCall() {
    let spy = Spy<Int, String>("api.fetch")
    let scriptLine = #line + 1
    spy.stub(script: ["first"])
    _ = try? spy(1)
    let line = #line + 2
    let issues = withCapturedIssues {
      #expect(throws: (any Error).self) { try spy(2) }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          Spy "api.fetch" was called more often than its script allows: call #2 since the script was set (with 2) has no \
          output, because the script set at EffectsTestSupportTests/SpyTests.swift:\(scriptLine) has 1 output. \
          Add an output to the script, or find the extra call.
          """,
          line: line
        )
      ]
    )
  }

  @Test func aVoidSpyPastTheEndOfItsScriptReportsAndReturns() {
    let spy = Spy<String, Void>("events.log")
    let scriptLine = #line + 1
    spy.stub(script: [()])
    spy.record("a")
    let line = #line + 2
    let issues = withCapturedIssues {
      spy.record("b")
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          Spy "events.log" was called more often than its script allows: call #2 since the script was set (with "b") has \
          no output, because the script set at EffectsTestSupportTests/SpyTests.swift:\(scriptLine) has 1 output. \
          Add an output to the script, or find the extra call.
          """,
          line: line
        )
      ]
    )
    #expect(spy.calls == ["a", "b"])
  }

  @Test func assertScriptConsumedReportsTheUnusedOutputs() throws {
    let spy = Spy<Void, Int>("counter.next")
    let scriptLine = #line + 1
    spy.stub(script: [1, 2, 3])
    _ = try spy()
    let line = #line + 2
    let issues = withCapturedIssues {
      spy.assertScriptConsumed()
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          Spy "counter.next" has its script (set at EffectsTestSupportTests/SpyTests.swift:\(scriptLine)) not used up: \
          1 of 3 outputs used, never used:
            [1] 2
            [2] 3
          Remove the outputs never used, or find the calls that should have used them.
          """,
          line: line
        )
      ]
    )
  }

  @Test func assertScriptConsumedWithoutAScriptIsReported() {
    let spy = Spy<Int, Int>("square")
    spy.stub { $0 * $0 }
    let line = #line + 2
    let issues = withCapturedIssues {
      spy.assertScriptConsumed()
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          Spy "square" has no script, so assertScriptConsumed() has nothing to check. Stub it with stub(script:), or \
          remove the assertion.
          """,
          line: line
        )
      ]
    )
  }

  @Test func anUnusedScriptIsReportedWhereItWasSetWhenTheSpyIsDeinitialized() {
    let scriptLine = #line + 4
    let issues = withCapturedIssues {
      // The spy lives only inside this closure.
      let spy = Spy<Int, String>("api.fetch")
      spy.stub(script: [.success("a"), .failure(Offline())])
      _ = try? spy(1)
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          Spy "api.fetch" was deinitialized with its script (set at EffectsTestSupportTests/SpyTests.swift:\(scriptLine)) \
          not used up: 1 of 2 outputs used, never used:
            [1] throws Offline()
          Remove the outputs never used, or find the calls that should have used them.
          """,
          line: scriptLine
        )
      ]
    )
  }

  @Test func aLeftoverAlreadyAssertedIsNotReportedAgainOnDeinit() {
    let scriptLine = #line + 4
    let issues = withCapturedIssues {
      // The spy lives only inside this closure.
      let spy = Spy<Int, String>("api.fetch")
      spy.stub(script: ["a"])
      spy.assertScriptConsumed()
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          Spy "api.fetch" has its script (set at EffectsTestSupportTests/SpyTests.swift:\(scriptLine)) not used up: \
          0 of 1 output used, never used:
            [0] "a"
          Remove the outputs never used, or find the calls that should have used them.
          """,
          line: scriptLine + 1
        )
      ]
    )
  }

  @Test func replacingAnUnusedScriptReportsItsLeftover() throws {
    let spy = Spy<Int, String>("api.fetch")
    let scriptLine = #line + 1
    spy.stub(script: ["a", "b"])
    let issues = withCapturedIssues {
      spy.stub(returning: "c")
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          Spy "api.fetch" was stubbed again with its script (set at EffectsTestSupportTests/SpyTests.swift:\(scriptLine)) \
          not used up: 0 of 2 outputs used, never used:
            [0] "a"
            [1] "b"
          Remove the outputs never used, or find the calls that should have used them.
          """,
          line: scriptLine
        )
      ]
    )
    #expect(try spy(1) == "c")
  }

  @Test func aSpyWithNoStubAndAnOutputReportsTheCallAndThrows() {
    let spy = Spy<String, Int>("api.fetchCount")
    let line = #line + 2
    let issues = withCapturedIssues {
      #expect(throws: (any Error).self) { try spy("blob") }
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          Spy "api.fetchCount" was called with "blob", but it has no stub. Stub it in the test with \
          stub(returning:), stub(throwing:), stub { input in … } or stub(script:).
          """,
          line: line
        )
      ]
    )
    #expect(spy.calls == ["blob"])
  }

  @Test func aVoidSpyWithNoStubAnswersWithoutReporting() throws {
    let spy = Spy<String, Void>("tokenStore.save")
    spy.record("a")
    try spy("b")
    #expect(spy.calls == ["a", "b"])
  }

  @Test func aThrowingStubRecordedWithoutTryFailsTheTestAtTheCall() {
    let spy = Spy<String, Void>("tokenStore.save")
    spy.stub(throwing: Offline())
    let line = #line + 2
    let issues = withCapturedIssues {
      spy.record("a")
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          Spy "tokenStore.save" threw Offline(), but it was called with record(…), which cannot throw, so the error \
          cannot reach the caller. Where the spy stands in for a throwing method, call it as `try spy(input)`.
          """,
          line: line
        )
      ]
    )
    #expect(spy.calls == ["a"])
  }

  @Test func aThrowingStubRecordedWithNoInputFailsTheTestAtTheCall() {
    let spy = Spy<Void, Void>("session.refresh")
    spy.stub(script: [.failure(Offline())])
    let line = #line + 2
    let issues = withCapturedIssues {
      spy.record()
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          Spy "session.refresh" threw Offline(), but it was called with record(…), which cannot throw, so the error \
          cannot reach the caller. Where the spy stands in for a throwing method, call it as `try spy(input)`.
          """,
          line: line
        )
      ]
    )
    spy.assertScriptConsumed()
  }

  @Test func recordReportsEachThrownErrorOnce() {
    let spy = Spy<Int, Void>("events.log")
    spy.stub { index in if index.isMultiple(of: 2) { throw Offline() } }
    let line = #line + 2
    let issues = withCapturedIssues {
      for index in 0..<4 { spy.record(index) }
    }.issues
    let threw = CapturedIssue(
      """
      Spy "events.log" threw Offline(), but it was called with record(…), which cannot throw, so the error cannot reach \
      the caller. Where the spy stands in for a throwing method, call it as `try spy(input)`.
      """,
      line: line
    )
    #expect(issues == [threw, threw])
    #expect(spy.calls == [0, 1, 2, 3])
  }

  // MARK: Assertions

  @Test func assertCallsCountPassesWithTheRightCount() {
    let spy = Spy<String, Void>("events.log")
    spy.assertCalls(count: 0)
    spy.record("a")
    spy.record("b")
    spy.assertCalls(count: 2)
  }

  @Test func assertCallsCountReportsTheCallsItFound() {
    let spy = Spy<String, Void>("events.log")
    spy.record("a")
    let line = #line + 2
    let issues = withCapturedIssues {
      spy.assertCalls(count: 2)
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          Spy "events.log" was called 1 time, expected 2 times:
            [0] "a"
          """,
          line: line
        )
      ]
    )
  }

  @Test func assertCallsCountRejectsANegativeCount() {
    let spy = Spy<String, Void>("events.log")
    let line = #line + 2
    let issues = withCapturedIssues {
      spy.assertCalls(count: -1)
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          #"Spy "events.log" cannot have been called -1 times. Pass assertCalls(count:) a count of 0 or more."#,
          line: line
        )
      ]
    )
  }

  @Test func assertNoCallsPassesWhenNothingWasCalled() {
    Spy<Int, Void>("events.log").assertNoCalls()
  }

  @Test func assertNoCallsReportsTheCalls() {
    let spy = Spy<Event, Void>("events.log")
    spy.record(Event(name: "menu_item_ordered"))
    let line = #line + 2
    let issues = withCapturedIssues {
      spy.assertNoCalls()
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          Spy "events.log" was called 1 time, expected none:
            [0] Event(name: "menu_item_ordered", properties: [:])
          """,
          line: line
        )
      ]
    )
  }

  @Test func assertCallsPassesWithExactlyTheCallsInOrder() {
    let spy = Spy<Event, Void>("events.log")
    spy.record(Event(name: "visited"))
    spy.record(Event(name: "ordered"))
    spy.assertCalls([Event(name: "visited"), Event(name: "ordered")])
  }

  @Test func assertCallsOnTheLastStepOnlySaysTheAssertionIsCumulative() {
    let spy = Spy<String, Void>("api.fetch")
    spy.record("41")
    spy.assertCalls(["41"])
    spy.record("42")
    let line = #line + 2
    let issues = withCapturedIssues {
      spy.assertCalls(["42"])
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          Spy "api.fetch" calls differ: got 2, expected 1; first difference at index 0:
            + [0] "41"   (unexpected)
              [1] "42"
          The expected list is the last 1 of the 2 calls recorded: an assertion checks every call since the \
          spy was made or cleared. Call clear() after an assertion to check one step at a time.
          """,
          line: line
        )
      ]
    )
  }

  @Test func aCallLogOnTheLastStepOnlySaysTheAssertionIsCumulative() {
    let log = CallLog()
    log.record("api.fetch", "41")
    log.assertCalls([.init("api.fetch", "41")])
    log.record("api.fetch", "42")
    let line = #line + 2
    let issues = withCapturedIssues {
      log.assertCalls([.init("api.fetch", "42")])
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          CallLog calls differ: got 2, expected 1; first difference at index 0:
            + [0] api.fetch(41)   (unexpected)
              [1] api.fetch(42)
          The expected list is the last 1 of the 2 calls recorded: an assertion checks every call since the \
          log was made or cleared. Call clear() after an assertion to check one step at a time.
          """,
          line: line
        )
      ]
    )
  }

  @Test func assertCallsReportsADiff() {
    let spy = Spy<String, Void>("events.log")
    spy.record("visited")
    spy.record("removed")
    let line = #line + 2
    let issues = withCapturedIssues {
      spy.assertCalls(["visited", "ordered", "paid"])
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          Spy "events.log" calls differ: got 2, expected 3; first difference at index 1:
              [0] "visited"
            ~ [1] "ordered"   (expected)
              [1] "removed"   (actual)
            - [2] "paid"   (missing)
          """,
          line: line
        )
      ]
    )
  }

  @Test func assertCallsIsCumulativeUntilTheSpyIsCleared() {
    let spy = Spy<String, Void>("events.log")
    spy.record("a")
    spy.assertCalls(["a"])
    spy.record("b")
    spy.assertCalls(["a", "b"])
    spy.assertCalls(count: 2)
    spy.clear()
    spy.assertNoCalls()
    spy.record("c")
    spy.assertCalls(["c"])
  }

  @Test func assertionsMarkTheCallsTheyCheckedAsVerified() {
    let log = CallLog()
    let save = Spy<String, Void>("tokenStore.save", log: log)
    let track = Spy<String, Void>("events.track", log: log)
    let refresh = Spy<Void, Void>("session.refresh", log: log)
    save.record("abc")
    track.record("login")
    refresh.record()
    save.assertCalls(["abc"])
    track.assertCalls(count: 1)
    refresh.assertCalls(count: 1)
    log.assertNoUnverifiedCalls()
  }
}
