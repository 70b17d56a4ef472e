import Effects
import EffectsTestSupport
import XCTest

/// The helpers fail an XCTest test too: outside Swift Testing they report through `XCTFail`, at the
/// line that called them.
final class XCTestReportingTests: FailureCapturingTestCase {
  func testAFailingSpyAssertionFailsTheXCTest() {
    let spy = Spy<String, Void>("tokenStore.save")
    spy.record("abd")
    let line = #line + 2
    let failures = capturingFailures {
      spy.assertCalls(count: 2)
    }
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue(
      failures.first?.message.hasSuffix(
        """
        Spy "tokenStore.save" was called 1 time, expected 2 times:
          [0] "abd"
        """
      ) == true
    )
    XCTAssertEqual(failures.first?.line, line)
  }

  func testAnUnimplementedSpyCallFailsTheXCTest() {
    let spy = Spy<Void, Int>("counter.next")
    let line = #line + 2
    let failures = capturingFailures {
      _ = try? spy()
    }
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue(
      failures.first?.message.contains(#"Spy "counter.next" was called with (), but it has no stub."#) == true
    )
    XCTAssertEqual(failures.first?.line, line)
  }

  func testAFailingObserverAssertionFailsTheXCTest() {
    let observer = TestObserver<Int, Never>()
    observer.send(1)
    let line = #line + 2
    let failures = capturingFailures {
      observer.assertValues([1, 2])
    }
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue(failures.first?.message.contains("TestObserver<Int, Never> values differ: got 1, expected 2") == true)
    XCTAssertEqual(failures.first?.line, line)
  }

  func testAnUnverifiedCallFailsTheXCTest() {
    let log = CallLog()
    let track = Spy<String, Void>("events.track", log: log)
    track.record("login")
    let failures = capturingFailures {
      log.assertNoUnverifiedCalls()
    }
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue(failures.first?.message.contains("[0] events.track(login)") == true)
  }

  func testPassingAssertionsRecordNothing() {
    let spy = Spy<String, Void>("tokenStore.save")
    let observer = TestObserver<Int, Never>()
    spy.record("abc")
    observer.send(1)
    observer.complete()
    let failures = capturingFailures {
      spy.assertCalls(["abc"])
      observer.assertValues([1])
      observer.assertDidComplete()
    }
    XCTAssertEqual(failures.count, 0)
  }
}
