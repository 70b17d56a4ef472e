import Effects
import EffectsTestSupport
import Foundation
import XCTest

/// The XCTest path of a tape's reports: a case fails at the line that made the network, as in
/// Swift Testing.
final class NetworkTapeXCTests: FailureCapturingTestCase {
  func testAMissingTapeFailsTheCaseAtTheLineThatAskedForIt() {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("NetworkTapeXCTests-\(UUID().uuidString)/missing.json")
    let line = #line + 1
    let failures = capturingFailures { _ = StubNetwork(tapeAt: file, mode: .play) }
    XCTAssertEqual(failures.map(\.line), [line])
    XCTAssertEqual(
      failures.map { $0.file.hasSuffix("/Tests/EffectsTestSupportTests/Network/NetworkTapeXCTests.swift") },
      [true]
    )
    XCTAssertEqual(
      failures.map(\.message),
      [
        """
        StubNetwork(tape:) has no tape to play: There is no network tape at \(file.path). It plays tapes only \
        (mode: .play), and never records one: record it once with mode: .record where the server can be reached, \
        then commit the file. Requests the code sends meanwhile are reported as not stubbed.
        """
      ]
    )
  }

  func testARequestTheTapeDoesNotHoldFailsTheCaseAtTheLineThatPlayedIt() async throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("NetworkTapeXCTests-\(UUID().uuidString)/me.json")
    try NetworkTape([.init(request: .get("https://api.example.com/me"), response: .ok("Ada"))]).write(to: file)
    let line = #line + 1
    let network = StubNetwork(tapeAt: file, mode: .play)
    let failures = await capturingAsyncFailures {
      _ = try? await network.send(.get("https://api.example.com/you"))
      _ = try? await network.send(.get("https://api.example.com/me"))
    }
    XCTAssertEqual(failures.map(\.line), [line])
    XCTAssertEqual(
      failures.first?.message.hasPrefix("StubNetwork got a request no stub matches: GET https://api.example.com/you."),
      true
    )
  }
}
