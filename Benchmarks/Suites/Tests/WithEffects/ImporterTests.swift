import Effects
import EffectsTestSupport
import Models
import Testing

/// The importer: 65 tasks a case, started and ended on virtual time.
@MainActor struct ImporterTests {
  @Test(.virtualTime, arguments: 0..<caseCount) func importsEveryItemWithItsThumbnail(_ index: Int) async {
    let scheduler = TestScheduler.current
    let clock = Environment.current.continuousClock
    let importer = Importer { try await clock.sleep(for: $0) }
    let importing = importer.start(0..<importedItems)
    await scheduler.advance(by: .milliseconds(10))
    #expect(importer.imported.count == importedItems / 4)
    #expect(importer.thumbnails == 0)
    await scheduler.advance(by: .milliseconds(30))
    #expect(importer.imported.count == importedItems)
    #expect(importer.thumbnails == importedItems / 4 * 3)
    await scheduler.advance(by: .milliseconds(5))
    #expect(importer.thumbnails == importedItems)
    importing.cancel()
    await importing.value
  }
}
