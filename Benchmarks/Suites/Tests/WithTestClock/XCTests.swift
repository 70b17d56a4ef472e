import Clocks
import Models
import XCTest

/// The same two tests in XCTest, with swift-clocks' `TestClock`. XCTest has no arguments: one
/// method runs the cases one after another.
final class DebounceXCTests: XCTestCase {
  @MainActor func testSearchesOnceTheUserStopsTyping() async {
    for index in 0..<caseCount {
      let clock = TestClock()
      let box = SearchBox { try await clock.sleep(for: $0) }
      box.type("piz")
      await clock.advance(by: .milliseconds(100))
      box.type("pizza")
      await clock.advance(by: .milliseconds(299))
      XCTAssertEqual(box.searches, [], "case \(index)")
      await clock.advance(by: .milliseconds(1))
      XCTAssertEqual(box.searches, ["pizza"], "case \(index)")
    }
  }
}

final class ImporterXCTests: XCTestCase {
  @MainActor func testImportsEveryItemWithItsThumbnail() async {
    for index in 0..<caseCount {
      let clock = TestClock()
      let importer = Importer { try await clock.sleep(for: $0) }
      let importing = importer.start(0..<importedItems)
      await clock.advance(by: .milliseconds(10))
      XCTAssertEqual(importer.imported.count, importedItems / 4, "case \(index)")
      XCTAssertEqual(importer.thumbnails, 0, "case \(index)")
      await clock.advance(by: .milliseconds(30))
      XCTAssertEqual(importer.imported.count, importedItems, "case \(index)")
      XCTAssertEqual(importer.thumbnails, importedItems / 4 * 3, "case \(index)")
      await clock.advance(by: .milliseconds(5))
      XCTAssertEqual(importer.thumbnails, importedItems, "case \(index)")
      importing.cancel()
      await importing.value
    }
  }
}
