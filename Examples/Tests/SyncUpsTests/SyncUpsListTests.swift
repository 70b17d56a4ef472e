import Effects
import EffectsTestSupport
import Foundation
import SyncUps
import Testing

/// The sync-up list's tests, re-expressed with `ModelTester`: each step of the model stated, the
/// save a second after the last change asserted as the file it writes, on virtual time.
@MainActor
@Suite struct SyncUpsListTests {
  /// What the list writes for `syncUps`.
  func saved(_ syncUps: [SyncUp]) throws -> Effect {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return .writeFile(path: SyncUpsListModel.path, contents: try encoder.encode(syncUps))
  }

  /// Writes `syncUps` where the list reads them, before the model is made.
  func store(_ syncUps: [SyncUp]) throws {
    try Environment.current.fileWriter.writeFile(path: SyncUpsListModel.path, contents: JSONEncoder().encode(syncUps))
  }

  @Test func addingASyncUpShowsTheFormThenKeepsWhatItHolds() async throws {
    for _ in 0..<200 {
      try await withVirtualTime { _ in
        let model = SyncUpsListModel()
        let tester = ModelTester(model)

        model.addSyncUpButtonTapped()
        guard case .add(let form) = model.destination else {
          Issue.record("expected the form")
          return
        }
        await tester.assert { $0.destination = .add(form) }
        #expect(form.syncUp == SyncUp(id: UUID(0), attendees: [Attendee(id: UUID(1))]))

        form.syncUp.title = "Engineering"
        form.syncUp.attendees[0].name = "Blob"
        form.addAttendeeButtonTapped()
        form.syncUp.attendees[1].name = "Blob Jr."
        model.confirmAddSyncUpButtonTapped()
        let added = SyncUp(
          id: UUID(0),
          attendees: [Attendee(id: UUID(1), name: "Blob"), Attendee(id: UUID(2), name: "Blob Jr.")],
          title: "Engineering"
        )
        await tester.assert {
          $0.destination = nil
          $0.syncUps = [added]
        }

        await tester.advance(by: .seconds(1))
        tester.assertEffects([try saved([added])])
        await tester.finish()
      }
    }
  }

  @Test func blankAttendeesAreDroppedAndOneIsKept() async throws {
    try await withVirtualTime { _ in
      let id = UUID(uuidString: "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF")!
      let form = SyncUpFormModel(
        syncUp: SyncUp(
          id: id,
          attendees: [Attendee(id: UUID(100)), Attendee(id: UUID(101), name: "   ")],
          title: "Design"
        )
      )
      let model = SyncUpsListModel(destination: .add(form))
      let tester = ModelTester(model)

      model.confirmAddSyncUpButtonTapped()
      let added = SyncUp(id: id, attendees: [Attendee(id: UUID(0))], title: "Design")
      await tester.assert {
        $0.destination = nil
        $0.syncUps = [added]
      }
      await tester.advance(by: .seconds(1))
      tester.assertEffects([try saved([added])])
      await tester.finish()
    }
  }

  @Test func deletingFromTheDetailRemovesTheSyncUpAndClosesIt() async throws {
    try await withVirtualTime { _ in
      let syncUp = SyncUp(id: UUID(7), attendees: [Attendee(id: UUID(8), name: "Ada")], title: "Standup")
      try store([syncUp])
      let model = SyncUpsListModel()
      let tester = ModelTester(model)

      model.syncUpTapped(syncUp)
      guard case .detail(let detail) = model.destination else {
        Issue.record("expected the detail")
        return
      }
      await tester.assert { $0.destination = .detail(detail) }
      let detailTester = ModelTester(detail)

      detail.deleteButtonTapped()
      await detailTester.assert { $0.destination = .confirmDeletion }
      await tester.assert { $0.destination = .detail(detail) }  // the list shows the detail's alert

      detail.confirmDeletionTapped()
      await detailTester.assert {
        $0.destination = nil
        $0.isDismissed = true
      }
      await detailTester.finish()  // each tester sees the world: the detail's ends before the save
      await tester.assert {
        $0.syncUps = []
        $0.destination = nil
      }
      await tester.advance(by: .seconds(1))
      tester.assertEffects([try saved([])])
      await tester.finish()
    }
  }

  @Test func editingInTheDetailUpdatesTheList() async throws {
    try await withVirtualTime { _ in
      let syncUp = SyncUp(id: UUID(7), attendees: [Attendee(id: UUID(8))])
      try store([syncUp])
      let model = SyncUpsListModel()
      model.syncUpTapped(syncUp)
      guard case .detail(let detail) = model.destination else {
        Issue.record("expected the detail")
        return
      }
      let tester = ModelTester(model)

      detail.editButtonTapped()
      guard case .edit(let form) = detail.destination else {
        Issue.record("expected the form")
        return
      }
      form.syncUp.title = "Design"
      detail.doneEditingButtonTapped()
      var edited = syncUp
      edited.title = "Design"
      await tester.assert {
        $0.syncUps = [edited]
        $0.destination = .detail(detail)  // the detail shows the edited sync-up
      }
      await tester.advance(by: .seconds(1))
      tester.assertEffects([try saved([edited])])
      await tester.finish()
    }
  }

  @Test func dataThatCannotBeReadOffersTheSamples() async throws {
    try await withVirtualTime { _ in
      try Environment.current.fileWriter.writeFile(
        path: SyncUpsListModel.path,
        contents: Data("!@#$ BAD DATA %^&*()".utf8)
      )
      let model = SyncUpsListModel()
      let tester = ModelTester(model)
      guard case .dataFailedToLoad = model.destination else {
        Issue.record("expected the alert")
        return
      }

      model.loadSamplesTapped()
      await tester.assert {
        $0.destination = nil
        $0.syncUps = SyncUp.samples
      }
      await tester.advance(by: .seconds(1))
      tester.assertEffects([try saved(SyncUp.samples)])
      await tester.finish()
    }
  }

  @Test func aMissingFileIsAnEmptyListWithNoAlert() async {
    await withVirtualTime { _ in
      let model = SyncUpsListModel()
      let tester = ModelTester(model)
      #expect(model.syncUps.isEmpty)
      #expect(model.destination == nil)
      await tester.finish()
    }
  }

  @Test func changesInQuickSuccessionAreSavedOnceASecondAfterTheLast() async throws {
    try await withVirtualTime { _ in
      let syncUp = SyncUp(id: UUID(7), attendees: [Attendee(id: UUID(8))], title: "A")
      try store([syncUp])
      let model = SyncUpsListModel()
      let tester = ModelTester(model)

      model.syncUps[0].title = "B"
      await tester.assert { $0.syncUps[0].title = "B" }
      await tester.advance(by: .milliseconds(500))
      model.syncUps[0].title = "C"
      await tester.assert { $0.syncUps[0].title = "C" }
      await tester.advance(by: .milliseconds(999))  // 1.499 s: the first save was cancelled
      await tester.advance(by: .milliseconds(1))
      var saved = syncUp
      saved.title = "C"
      tester.assertEffects([try self.saved([saved])])
      await tester.finish()
    }
  }
}
