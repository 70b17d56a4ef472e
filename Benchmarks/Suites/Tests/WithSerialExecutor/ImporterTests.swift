import Clocks
import ConcurrencyExtras
import Models
import Testing

/// The importer, tested with `TestClock` inside `withMainSerialExecutor`: cases one at a time
/// (`.serialized`), as it requires.
@Suite(.serialized) @MainActor struct ImporterTests {
  @Test(arguments: 0..<caseCount) func importsEveryItemWithItsThumbnail(_ index: Int) async {
    await withMainSerialExecutor {
      let clock = TestClock()
      let importer = Importer { try await clock.sleep(for: $0) }
      let importing = importer.start(0..<importedItems)
      await clock.advance(by: .milliseconds(10))
      #expect(importer.imported.count == importedItems / 4)
      #expect(importer.thumbnails == 0)
      await clock.advance(by: .milliseconds(30))
      #expect(importer.imported.count == importedItems)
      #expect(importer.thumbnails == importedItems / 4 * 3)
      await clock.advance(by: .milliseconds(5))
      #expect(importer.thumbnails == importedItems)
      importing.cancel()
      await importing.value
    }
  }
}
