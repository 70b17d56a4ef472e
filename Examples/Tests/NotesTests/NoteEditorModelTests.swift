import Effects
import EffectsTestSupport
import Foundation
import Notes
import XCTest

/// The notes editor, tested the way an XCTest team writes it: the model built in `setUp`, one
/// virtual-time scope per test method, on the case's own scheduler and test environment.
final class NoteEditorModelTests: XCTestCase {
  private var scheduler: TestScheduler!
  private var network: StubNetwork!
  private var model: NoteEditorModel!

  /// Every method, with `setUp` and `tearDown`, runs in a test environment on the case's scheduler.
  override func invokeTest() {
    scheduler = TestScheduler()
    let environment = Environment.test(scheduler: scheduler)
    network = environment.stubNetwork
    withEnvironment(environment) { super.invokeTest() }
  }

  @MainActor override func setUp() async throws {
    model = NoteEditorModel(note: Note(id: 7, text: ""))
  }

  @MainActor func testSavesTwoSecondsAfterTheLastEdit() async {
    network.stub(NotesAPI.saveRequest(Note(id: 7, text: "Hello")), .ok())
    await scheduler.withVirtualTime {
      model.edit("Hel")
      await scheduler.advance(by: .seconds(1))
      model.edit("Hello")
      await scheduler.advance(by: .milliseconds(1_999))
      XCTAssertEqual(model.status, .idle)
      await scheduler.advance(by: .milliseconds(1))
      XCTAssertEqual(model.status, .saved)
      network.assertRequests([NotesAPI.saveRequest(Note(id: 7, text: "Hello"))])
    }
  }

  @MainActor func testRetriesAFailedSaveAfterOneThenTwoSeconds() async {
    let save = NotesAPI.saveRequest(Note(id: 7, text: "Hi"))
    network.stub(save, throwing: URLError(.notConnectedToInternet))
    network.stub(save, .status(503))
    network.stub(save, .ok())
    await scheduler.withVirtualTime {
      model.edit("Hi")
      await scheduler.advance(by: .seconds(2))
      XCTAssertEqual(model.status, .saving)
      await scheduler.advance(by: .milliseconds(999))
      network.assertRequests(count: 1)
      await scheduler.advance(by: .milliseconds(1))
      network.assertRequests(count: 2)
      await scheduler.advance(by: .seconds(2))
      network.assertRequests(count: 3)
      XCTAssertEqual(model.status, .saved)
    }
  }

  @MainActor func testGivesUpAfterThreeRetries() async {
    network.stub(NotesAPI.saveRequest(Note(id: 7, text: "Hi")), .status(500))
    await scheduler.withVirtualTime {
      model.edit("Hi")
      await scheduler.advance(by: .seconds(2 + 1 + 2 + 4))
      XCTAssertEqual(model.status, .failed)
      network.assertRequests(count: 4)
    }
  }

  @MainActor func testRefreshesNowThenEveryThirtySecondsUntilStopped() async {
    network.stub(.get(NotesAPI.base), .json(#"[{"id":1,"text":"a"}]"#))
    network.stub(.get(NotesAPI.base), .json(#"[{"id":1,"text":"a"},{"id":2,"text":"b"}]"#))
    await scheduler.withVirtualTime {
      model.startRefreshing()
      await scheduler.advance()
      XCTAssertEqual(model.notes.map(\.id), [1])
      await scheduler.advance(by: .seconds(29))
      network.assertRequests(count: 1)
      await scheduler.advance(by: .seconds(1))
      XCTAssertEqual(model.notes.map(\.id), [1, 2])
      model.stop()
      await scheduler.advance(by: .seconds(60))
      network.assertRequests(count: 2)
    }
  }

  @MainActor func testFollowsTheChangesOfOtherDevicesUntilStopped() async {
    let (changes, remote) = AsyncStream<Note>.makeStream()
    await scheduler.withVirtualTime {
      model.follow(changes)
      remote.yield(Note(id: 7, text: "From the phone"))
      await scheduler.advance()
      XCTAssertEqual(model.note.text, "From the phone")
      model.stop()
      remote.yield(Note(id: 7, text: "Too late"))
      await scheduler.advance()
      XCTAssertEqual(model.note.text, "From the phone")
    }
  }
}
