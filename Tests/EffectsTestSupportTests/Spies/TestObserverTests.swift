import EffectsTestHelpers
import EffectsTestSupport
import Testing

private struct Offline: Error, Equatable {}

@Suite struct TestObserverTests {
  // MARK: Feeding

  @Test func callbacksRecordValuesAndCompletion() {
    let observer = TestObserver<Int, Never>()
    #expect(observer.values.isEmpty)
    #expect(observer.lastValue == nil)

    observer.send(1)
    observer.send(2)
    observer.complete()

    #expect(observer.values == [1, 2])
    #expect(observer.lastValue == 2)
    #expect(observer.didComplete)
    #expect(observer.failure == nil)
  }

  @Test func aFailureIsRecordedAndIsNotACompletion() {
    let observer = TestObserver<Int, Offline>()
    observer.fail(Offline())
    #expect(observer.failure == Offline())
    #expect(!observer.didComplete)
  }

  @Test func methodsCanBePassedAsCallbacks() {
    let observer = TestObserver<String, Never>()
    let countdown = { (onValue: (String) -> Void, onDone: () -> Void) in
      for text in ["3", "2", "1"] { onValue(text) }
      onDone()
    }
    countdown(observer.send, observer.complete)
    observer.assertValues(["3", "2", "1"])
    observer.assertDidComplete()
  }

  @Test func observeConsumesASequenceToItsEndThenCompletes() async {
    let stream = AsyncStream<Int> { continuation in
      continuation.yield(1)
      continuation.yield(2)
      continuation.finish()
    }
    let observer = TestObserver<Int, Never>()

    await observer.observe(stream)

    observer.assertValues([1, 2])
    observer.assertDidComplete()
    observer.assertDidNotFail()
  }

  @Test func observeRecordsAThrownErrorAsAFailure() async {
    let stream = AsyncThrowingStream<Int, any Error> { continuation in
      continuation.yield(1)
      continuation.finish(throwing: Offline())
    }
    let observer = TestObserver<Int, any Error>()

    await observer.observe(stream)

    observer.assertValues([1])
    observer.assertDidFail()
    observer.assertDidNotComplete()
    #expect(observer.failure is Offline)
  }

  @Test func observeReportsAnErrorTheObserverCannotHold() async {
    let stream = AsyncThrowingStream<Int, any Error> { $0.finish(throwing: Offline()) }
    let observer = TestObserver<Int, Never>()
    let line = #line + 2
    let issues = await withCapturedIssues {
      await observer.observe(stream)
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          TestObserver<Int, Never> cannot record what the observed AsyncThrowingStream<Int, Error> threw, Offline(), \
          as a failure: it is not a Never. Declare the observer with Failure = any Error (or the sequence's error type).
          """,
          line: line
        )
      ]
    )
    observer.assertDidNotComplete()
  }

  @Test func manyTasksCanFeedOneObserver() async {
    let observer = TestObserver<Int, Never>()
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<4 {
        group.addTask {
          for index in 0..<1_000 { observer.send(task * 1_000 + index) }
        }
      }
    }
    #expect(Set(observer.values) == Set(0..<4_000))
  }

  // MARK: Assertions

  @Test func assertValuesReportsADiff() {
    let observer = TestObserver<String, Never>()
    observer.send("loading")
    observer.send("failed")
    let line = #line + 2
    let issues = withCapturedIssues {
      observer.assertValues(["loading", "loaded"])
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          TestObserver<String, Never> values differ: got 2, expected 2; first difference at index 1:
              [0] "loading"
            ~ [1] "loaded"   (expected)
              [1] "failed"   (actual)
          """,
          line: line
        )
      ]
    )
  }

  @Test func assertValuesCountPassesWithTheRightCount() {
    let observer = TestObserver<Int, Never>()
    observer.assertValues(count: 0)
    observer.send(1)
    observer.assertValues(count: 1)
  }

  @Test func assertValuesCountReportsTheValues() {
    let observer = TestObserver<Int, Never>()
    observer.send(7)
    let line = #line + 2
    let issues = withCapturedIssues {
      observer.assertValues(count: 2)
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          TestObserver<Int, Never> received 1 value, expected 2 values:
            [0] 7
          """,
          line: line
        )
      ]
    )
  }

  @Test func assertValuesCountRejectsANegativeCount() {
    let observer = TestObserver<Int, Never>()
    let line = #line + 2
    let issues = withCapturedIssues {
      observer.assertValues(count: -1)
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          "TestObserver<Int, Never> cannot have received -1 values. Pass assertValues(count:) a count of 0 or more.",
          line: line
        )
      ]
    )
  }

  @Test func assertValuesIsCumulativeUntilTheObserverIsCleared() {
    let observer = TestObserver<Int, Never>()
    observer.send(1)
    observer.assertValues([1])
    observer.send(2)
    observer.assertValues([1, 2])
    observer.assertValues(count: 2)
    observer.clear()
    observer.assertNoValues()
  }

  @Test func assertLastValuePassesWithTheLatestValue() {
    let observer = TestObserver<Int, Never>()
    observer.send(1)
    observer.send(2)
    observer.assertLastValue(2)
  }

  @Test func assertLastValueReportsAnotherValue() {
    let observer = TestObserver<Int, Never>()
    observer.send(1)
    let line = #line + 2
    let issues = withCapturedIssues {
      observer.assertLastValue(2)
    }.issues
    #expect(issues == [CapturedIssue("TestObserver<Int, Never>'s last value is 1, expected 2.", line: line)])
  }

  @Test func assertLastValueReportsNoValue() {
    let observer = TestObserver<Int, Never>()
    let issues = withCapturedIssues {
      observer.assertLastValue(2)
    }.issues
    #expect(issues.map(\.message) == ["TestObserver<Int, Never> received no values, expected the last one to be 2."])
  }

  @Test func assertNoValuesPassesWhenSilent() {
    TestObserver<Int, Never>().assertNoValues()
  }

  @Test func assertNoValuesReportsTheValues() {
    let observer = TestObserver<Int, Never>()
    observer.send(1)
    let line = #line + 2
    let issues = withCapturedIssues {
      observer.assertNoValues()
    }.issues
    #expect(
      issues == [
        CapturedIssue(
          """
          TestObserver<Int, Never> received 1 value, expected none:
            [0] 1
          """,
          line: line
        )
      ]
    )
  }

  @Test func assertDidCompleteReportsAnOpenStream() {
    let observer = TestObserver<Int, Never>()
    observer.send(1)
    let line = #line + 2
    let issues = withCapturedIssues {
      observer.assertDidComplete()
    }.issues
    #expect(
      issues == [
        CapturedIssue("TestObserver<Int, Never> did not complete; it received 1 value and is still open.", line: line)
      ]
    )
  }

  @Test func assertDidCompleteReportsAFailure() {
    let observer = TestObserver<Int, Offline>()
    observer.fail(Offline())
    let issues = withCapturedIssues {
      observer.assertDidComplete()
    }.issues
    #expect(issues.map(\.message) == ["TestObserver<Int, Offline> did not complete: it failed with Offline()."])
  }

  @Test func assertDidNotCompletePassesWhileOpen() {
    TestObserver<Int, Never>().assertDidNotComplete()
  }

  @Test func assertDidNotCompleteReportsACompletion() {
    let observer = TestObserver<Int, Never>()
    observer.send(1)
    observer.complete()
    let line = #line + 2
    let issues = withCapturedIssues {
      observer.assertDidNotComplete()
    }.issues
    #expect(
      issues == [CapturedIssue("TestObserver<Int, Never> completed, expected it not to, after 1 value.", line: line)]
    )
  }

  @Test func assertDidFailReportsACompletion() {
    let observer = TestObserver<Int, Offline>()
    observer.send(1)
    observer.send(2)
    observer.complete()
    let line = #line + 2
    let issues = withCapturedIssues {
      observer.assertDidFail()
    }.issues
    #expect(
      issues == [CapturedIssue("TestObserver<Int, Offline> did not fail (after 2 values; it completed).", line: line)]
    )
  }

  @Test func assertDidNotFailReportsTheError() {
    let observer = TestObserver<Int, Offline>()
    observer.fail(Offline())
    let line = #line + 2
    let issues = withCapturedIssues {
      observer.assertDidNotFail()
    }.issues
    #expect(
      issues == [
        CapturedIssue("TestObserver<Int, Offline> failed with Offline(), expected it not to fail.", line: line)
      ]
    )
  }
}
