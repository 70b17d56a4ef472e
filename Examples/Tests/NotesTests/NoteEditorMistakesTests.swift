import Effects
import EffectsTestSupport
import Foundation
import Notes
import XCTest

/// The mistakes an XCTest team makes with the notes editor, each reported on the team's own line —
/// in the test, or in the model's source — with its text.
final class NoteEditorMistakesTests: CapturingTestCase {
  private static let testFile = "/Examples/Tests/NotesTests/NoteEditorMistakesTests.swift"
  private static let modelFile = "/Examples/Sources/Notes/NoteEditorModel.swift"

  @MainActor func testARefreshLeftRunningIsReportedWhereTheModelSchedulesIt() async {
    let scopeLine = #line + 2
    let failures = await capturingFailures {
      await withVirtualTime { scheduler in
        let model = NoteEditorModel(note: Note(id: 7, text: ""))
        Environment.current.stubNetwork.stub(.get(NotesAPI.base), .json("[]"))
        model.startRefreshing()  // the mistake: never stopped
        await scheduler.advance()
      }
    }
    XCTAssertEqual(failures.map { $0.file.hasSuffix(Self.modelFile) }, [true])
    XCTAssertEqual(failures.map(\.line), [47], "the line of NoteEditorModel that schedules the refresh")
    XCTAssertEqual(failures.map(\.kind), [.leftoverWork])
    XCTAssertEqual(
      failures.map(\.message),
      [
        """
        withVirtualTime at NotesTests/NoteEditorMistakesTests.swift:\(scopeLine) ended with a repeating timer \
        scheduled here (every .seconds(30)) still pending (due at .seconds(30); virtual time was .seconds(0)). It was \
        cancelled. Cancel the timer before the scope ends; if the test means to leave it, open the scope with \
        leftoverWork: .expected.
        """
      ]
    )
  }

  @MainActor func testAFollowerLeftRunningIsReportedWhereTheModelStartsIt() async throws {
    #if !os(Linux)
    // The line that started a task is found on the stack on Linux; elsewhere it is the scope's.
    throw XCTSkip("the lines that start tasks are found on the stack on Linux only")
    #endif
    let (changes, remote) = AsyncStream<Note>.makeStream()
    let scopeLine = #line + 2
    let failures = await capturingFailures {
      await withVirtualTime { scheduler in
        let model = NoteEditorModel(note: Note(id: 7, text: ""))
        model.follow(changes)  // the mistake: never stopped
        remote.yield(Note(id: 7, text: "From the phone"))
        await scheduler.advance()
        XCTAssertEqual(model.note.text, "From the phone")
      }
    }
    remote.finish()
    XCTAssertEqual(failures.map { $0.file.hasSuffix(Self.modelFile) }, [true])
    XCTAssertEqual(failures.map(\.line), [56], "the line of NoteEditorModel that starts the follower")
    XCTAssertEqual(failures.map(\.message), [Self.followerLeftRunning(scopeLine: scopeLine)])
  }

  /// Two followers left running, one started before the first advance and one after it: two
  /// issues, the same two on every run.
  @MainActor func testFollowersLeftRunningAreReportedTheSameWayOnEveryRun() async throws {
    #if !os(Linux)
    throw XCTSkip("the lines that start tasks are found on the stack on Linux only")
    #endif
    var reports: [[Failure]: Int] = [:]
    var scopeLine = 0
    for _ in 0..<200 {
      // A stream of its own each run: cancelling a task that iterates a stream ends the stream.
      let (changes, remote) = AsyncStream<Note>.makeStream()
      defer { remote.finish() }
      scopeLine = #line + 2
      let failures = await capturingFailures {
        await withVirtualTime { scheduler in
          NoteEditorModel(note: Note(id: 7, text: "")).follow(changes)
          await scheduler.advance(by: .seconds(1))
          NoteEditorModel(note: Note(id: 8, text: "")).follow(changes)
          await scheduler.advance()
        }
      }
      reports[failures, default: 0] += 1
    }
    let expected = Self.followerLeftRunning(scopeLine: scopeLine)
    XCTAssertEqual(reports.count, 1, "200 runs gave \(reports.count) different reports: \(reports)")
    XCTAssertEqual(reports.first?.key.map(\.message), [expected, expected])
    XCTAssertEqual(reports.first?.key.map(\.line), [56, 56])
  }

  private static func followerLeftRunning(scopeLine: Int) -> String {
    """
    withVirtualTime at NotesTests/NoteEditorMistakesTests.swift:\(scopeLine) ended with a task started here still \
    suspended, waiting for something other than the scheduler: a stream that never yields, a continuation never \
    resumed, a task it awaits, a real sleep or I/O. It was cancelled, and ended. Let the task finish (or cancel it) \
    before the scope ends; if the test means to leave it running, open the scope with leftoverWork: .expected.
    """
  }

  @MainActor func testAStubNeverUsedIsReportedAtItsLine() async {
    let stubLine = #line + 3
    let failures = await capturingFailures {
      await withVirtualTime { _ in
        Environment.current.stubNetwork.stub(.get(NotesAPI.base), .json("[]"))  // the mistake: nothing loads
      }
    }
    XCTAssertEqual(failures.map(\.line), [stubLine])
    XCTAssertEqual(failures.map { $0.file.hasSuffix(Self.testFile) }, [true])
    XCTAssertEqual(
      failures.map(\.message),
      [
        """
        StubNetwork stub made here was never used: GET https://notes.example.com/notes → 200 \
        ["Content-Type": "application/json"] body: "[]". It got no request.
        Remove the stub if the code should not send this request, or find why it did not (a request matches with \
        the same method, URL and body).
        """
      ]
    )
  }
}

/// A model built in `setUp` with no environment set for the case reads the live world: each read
/// fails the test at the line that read, and says it was in `setUp`, and what to do.
final class NoteEditorSetUpMistakeTests: CapturingTestCase {
  private var setUpFailures: [Failure] = []
  private var model: NoteEditorModel!

  @MainActor override func setUp() async throws {
    setUpFailures = await capturingFailures {
      model = NoteEditorModel(note: Note(id: 7, text: ""))  // the mistake: no environment for the case
    }
  }

  func testTheLiveReadsOfSetUpAreReportedWhereTheModelReads() throws {
    #if !os(Linux)
    // The read site is found on the stack on Linux; elsewhere the failure has no line of the read.
    throw XCTSkip("read sites are found on the stack on Linux only")
    #endif
    XCTAssertEqual(setUpFailures.map { $0.file.hasSuffix("/Examples/Sources/Notes/Uploader.swift") }, [true])
    XCTAssertEqual(setUpFailures.map(\.line), [16], "the line of Uploader that reads the clock")
    XCTAssertEqual(
      setUpFailures.map(\.message),
      [
        """
        Environment.current.continuousClock was read in a test, but no environment was set for this test, so it \
        answered the live DurationClock. A test should control what it reads and where its effects go: run it with \
        @Test(.environment(.test())) or inside withEnvironment(.test()) { … }, or set environment.continuousClock. To \
        use the real world on purpose (an integration test), say so: withEnvironment(.live) { … } or \
        @Test(.environment(.live)). It was read in setUp(), which runs before the test method, outside the \
        environment and the scope the method sets. Give the whole case a test environment: override invokeTest() { \
        withEnvironment(.test(scheduler: scheduler)) { super.invokeTest() } }, and open each method's scope with \
        scheduler.withVirtualTime { … } (the article Testing with XCTest).
        """
      ]
    )
  }
}
