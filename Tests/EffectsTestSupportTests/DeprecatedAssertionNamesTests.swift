import EffectsTestHelpers
import EffectsTestSupport
import Testing

/// Calls each deprecated assertion name from a deprecated witness, so the tests that check them
/// still compile without a deprecation warning; each passes on the caller's line.
private protocol OldAssertionNames {
  func assertCalled(_ spy: Spy<String, Void>, times: Int, line: UInt)
  func assertNotCalled(_ spy: Spy<String, Void>, line: UInt)
  func assertCalledOnce(_ spy: Spy<String, Void>, with input: String, line: UInt)
  func assertValueCount(_ observer: TestObserver<Int, Never>, _ count: Int, line: UInt)
  func assertDidEmitValue(_ observer: TestObserver<Int, Never>, line: UInt)
  func assertDidNotEmitValue(_ observer: TestObserver<Int, Never>, line: UInt)
  func assertSequence(_ log: CallLog, _ expected: [CallLog.Entry], line: UInt)
}

private struct OldNames: OldAssertionNames {
  @available(*, deprecated)
  func assertCalled(_ spy: Spy<String, Void>, times: Int, line: UInt) { spy.assertCalled(times: times, line: line) }
  @available(*, deprecated)
  func assertNotCalled(_ spy: Spy<String, Void>, line: UInt) { spy.assertNotCalled(line: line) }
  @available(*, deprecated)
  func assertCalledOnce(_ spy: Spy<String, Void>, with input: String, line: UInt) {
    spy.assertCalledOnce(with: input, line: line)
  }
  @available(*, deprecated)
  func assertValueCount(_ observer: TestObserver<Int, Never>, _ count: Int, line: UInt) {
    observer.assertValueCount(count, line: line)
  }
  @available(*, deprecated)
  func assertDidEmitValue(_ observer: TestObserver<Int, Never>, line: UInt) { observer.assertDidEmitValue(line: line) }
  @available(*, deprecated)
  func assertDidNotEmitValue(_ observer: TestObserver<Int, Never>, line: UInt) {
    observer.assertDidNotEmitValue(line: line)
  }
  @available(*, deprecated)
  func assertSequence(_ log: CallLog, _ expected: [CallLog.Entry], line: UInt) {
    log.assertSequence(expected, line: line)
  }
}

/// The old names still work, each by calling the new one: they pass and fail as it does.
@Suite struct DeprecatedAssertionNamesTests {
  private let old: any OldAssertionNames = OldNames()

  @Test func assertCalledTimesIsAssertCallsCount() {
    let spy = Spy<String, Void>("events.log")
    spy.record("a")
    old.assertCalled(spy, times: 1, line: #line)
    let line = #line + 1
    let issues = withCapturedIssues { old.assertCalled(spy, times: 2, line: #line) }.issues
    #expect(issues == withCapturedIssues { spy.assertCalls(count: 2, line: UInt(line)) }.issues)
    #expect(issues.count == 1)
  }

  @Test func assertNotCalledIsAssertNoCalls() {
    let spy = Spy<String, Void>("events.log")
    old.assertNotCalled(spy, line: #line)
    spy.record("a")
    let line = #line + 1
    let issues = withCapturedIssues { old.assertNotCalled(spy, line: #line) }.issues
    #expect(issues == withCapturedIssues { spy.assertNoCalls(line: UInt(line)) }.issues)
    #expect(issues.count == 1)
  }

  @Test func assertCalledOnceIsAssertCallsOfOneInput() {
    let spy = Spy<String, Void>("tokenStore.save")
    spy.record("abc")
    old.assertCalledOnce(spy, with: "abc", line: #line)
    let line = #line + 1
    let issues = withCapturedIssues { old.assertCalledOnce(spy, with: "abd", line: #line) }.issues
    #expect(issues == withCapturedIssues { spy.assertCalls(["abd"], line: UInt(line)) }.issues)
    #expect(issues.count == 1)
  }

  @Test func assertValueCountIsAssertValuesCount() {
    let observer = TestObserver<Int, Never>()
    observer.send(1)
    old.assertValueCount(observer, 1, line: #line)
    let line = #line + 1
    let issues = withCapturedIssues { old.assertValueCount(observer, 2, line: #line) }.issues
    #expect(issues == withCapturedIssues { observer.assertValues(count: 2, line: UInt(line)) }.issues)
    #expect(issues.count == 1)
  }

  @Test func assertDidNotEmitValueIsAssertNoValues() {
    let observer = TestObserver<Int, Never>()
    old.assertDidNotEmitValue(observer, line: #line)
    observer.send(1)
    let line = #line + 1
    let issues = withCapturedIssues { old.assertDidNotEmitValue(observer, line: #line) }.issues
    #expect(issues == withCapturedIssues { observer.assertNoValues(line: UInt(line)) }.issues)
    #expect(issues.count == 1)
  }

  @Test func assertDidEmitValueStillChecksForAValue() {
    let observer = TestObserver<Int, Never>()
    observer.complete()
    let line = #line + 1
    let issues = withCapturedIssues { old.assertDidEmitValue(observer, line: #line) }.issues
    #expect(
      issues == [
        CapturedIssue("TestObserver<Int, Never> received no values, expected at least one (it completed).", line: line)
      ]
    )
    observer.send(1)
    old.assertDidEmitValue(observer, line: #line)
  }

  @Test func assertSequenceIsAssertCalls() {
    let log = CallLog()
    log.record("api.fetch", "42")
    old.assertSequence(log, [.init("api.fetch", "42")], line: #line)
    let line = #line + 1
    let issues = withCapturedIssues { old.assertSequence(log, [], line: #line) }.issues
    #expect(issues == withCapturedIssues { log.assertCalls([], line: UInt(line)) }.issues)
    #expect(issues.count == 1)
  }
}
