import Effects
import EffectsTestSupport
import OrderingBugs
import Testing

/// What both document libraries hold and do.
@MainActor protocol DocumentSaving {
  var files: [String: String] { get }
  var index: [String: String] { get }
  func save(_ text: String, as name: String) async throws
}

extension InconsistentDocumentLibrary: DocumentSaving {}
extension DocumentLibrary: DocumentSaving {}

/// Where the editor keeps its windows' frames: closing a window stores its frame there first.
actor WindowFrames {
  private var frames: [String: String] = [:]
  func store(_ frame: String, for name: String) { frames[name] = frame }
}

/// Shape 4, a cancellation that lands between two steps: the user saves a note, then closes its
/// window, which stores the window's frame and cancels the save in flight. In the default order
/// the save has finished when the cancel lands; in others the cancel lands between the file and
/// the index, and the file is saved but never listed.
@MainActor @Suite struct CancellationBetweenStepsTests {
  /// Save, then close, with `library`: the file and the index must agree.
  static func savingThenClosingTheWindow(with library: some DocumentSaving) async {
    let frames = WindowFrames()
    let saving = Task { try await library.save("Groceries\nmilk, eggs", as: "groceries.txt") }
    let closing = Task {
      await frames.store("0 0 400 300", for: "groceries.txt")
      saving.cancel()
    }
    _ = await saving.result
    await closing.value
    #expect(
      library.files.keys.sorted() == library.index.keys.sorted(),
      "saved \(library.files.keys.sorted()), indexed \(library.index.keys.sorted())"
    )
  }

  static func buggy(_: TestScheduler) async {
    await savingThenClosingTheWindow(with: InconsistentDocumentLibrary())
  }

  static func fixed(_: TestScheduler) async {
    await savingThenClosingTheWindow(with: DocumentLibrary())
  }

  @Test(.virtualTime) func theBuggyLibraryPassesInTheDefaultOrder() async {
    await Self.buggy(TestScheduler.current)
  }

  @Test(arguments: strategies)
  func explorationFindsTheUnindexedFileAndItsScheduleReplays(_ exploration: Exploration) async throws {
    let schedule = try #require(await failingSchedule(exploring: exploration, Self.buggy))
    #expect(await failures(replaying: schedule, Self.buggy) == 100)
  }

  @Test(.virtualTime(exploring: .pct(runs: 200))) func theFixedLibraryPassesEveryPCTSchedule() async {
    await Self.fixed(TestScheduler.current)
  }

  @Test(.virtualTime(exploring: .randomWalk(runs: 200))) func theFixedLibraryPassesEveryRandomWalk() async {
    await Self.fixed(TestScheduler.current)
  }
}
