import Effects
import EffectsTestSupport
import Foundation
import Notes
import XCTest

/// Work one test leaves running can fail after that test has ended, while another runs. XCTest
/// records a failure only on the case running now, so the failure names the test that started the
/// work. XCTest runs a class's methods in the order of their names: the first leaves a sync
/// running, the second is running when it fails.
final class WorkLeftRunningTests: CapturingTestCase {
  private static let changes = AsyncStream<Note>.makeStream()
  @MainActor private static var sync: Task<Void, Never>?
  @MainActor private static var firstTest: String?
  private static let scopeLine = #line + 4

  @MainActor func test1LeavesASyncRunning() async {
    Self.firstTest = name
    await withVirtualTime(leftoverWork: .expected) { _ in
      // Sends each change to the server: with no stub for it, a send fails the test that runs.
      Self.sync = Task {
        for await note in Self.changes.stream {
          try? await NotesAPI().save(note)
        }
      }
    }
  }

  @MainActor func test2IsRunningWhenThatSyncFails() async throws {
    guard let firstTest = Self.firstTest, let sync = Self.sync else {
      throw XCTSkip("runs after test1LeavesASyncRunning, which leaves the sync running")
    }
    let failures = await capturingFailures {
      Self.changes.continuation.yield(Note(id: 7, text: "Late"))
      Self.changes.continuation.finish()
      await sync.value
    }
    // Placed where the first test made the environment that has no stub, in its text the test
    // that started the sync, and the test it is recorded on.
    XCTAssertEqual(failures.map(\.line), [Self.scopeLine])
    XCTAssertEqual(failures.map { $0.file.hasSuffix("/Tests/NotesTests/WorkLeftRunningTests.swift") }, [true])
    XCTAssertEqual(
      failures.map(\.message),
      [
        """
        StubNetwork got a request no stub matches: PUT https://notes.example.com/notes/7 ["Content-Type": \
        "application/json"] body: "{\\"id\\":7,\\"text\\":\\"Late\\"}". It has no stubs. Stub what the server \
        should answer before the code under test sends the request: network.stub(.put(\
        "https://notes.example.com/notes/7", headers: ["Content-Type": "application/json"], body: …), .ok()). The \
        code that sent it got StubNetworkError. (Raised by work that \(firstTest) started and left running: it came \
        after that test had ended, and is recorded on \(name), which runs now.)
        """
      ]
    )
  }
}
