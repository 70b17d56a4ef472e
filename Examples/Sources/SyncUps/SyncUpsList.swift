public import Effects
import Foundation
public import Observation

/// The list of sync-ups, loaded from and saved to a file: saved one second after the last change,
/// so a burst of edits is written once.
@MainActor @Observable
public final class SyncUpsListModel {
  /// What the list presents.
  public enum Destination {
    /// The form for a new sync-up.
    case add(SyncUpFormModel)
    /// The alert that the saved data could not be read, offering the samples.
    case dataFailedToLoad
    /// One sync-up's detail.
    case detail(SyncUpDetailModel)
  }

  /// Where the list is kept.
  public static let path = "/documents/sync-ups.json"

  /// What is presented, if anything.
  public var destination: Destination? {
    didSet { bind() }
  }
  /// The sync-ups; each change is saved a second later.
  public var syncUps: [SyncUp] {
    didSet { scheduleSave() }
  }

  @ObservationIgnored private var saving: Task<Void, Never>?
  @ObservationIgnored private let environment: Environment

  /// Creates the list, reading the saved sync-ups: none when there is no file yet, and an alert
  /// when the file cannot be read as sync-ups.
  public init(destination: Destination? = nil, environment: Environment = .current) {
    self.destination = destination
    self.environment = environment
    self.syncUps = []
    if let data = try? environment.fileReader.contents(atPath: Self.path) {
      do {
        syncUps = try JSONDecoder().decode([SyncUp].self, from: data)
      } catch {
        self.destination = .dataFailedToLoad
      }
    }
    bind()
  }

  /// Opens the form for a new sync-up.
  public func addSyncUpButtonTapped() {
    destination = .add(SyncUpFormModel(syncUp: SyncUp(id: environment.uuid()), environment: environment))
  }

  /// Closes the form without adding.
  public func dismissAddSyncUpButtonTapped() {
    destination = nil
  }

  /// Adds the sync-up of the form, without its blank attendees (one empty attendee when all were
  /// blank), and closes the form.
  public func confirmAddSyncUpButtonTapped() {
    defer { destination = nil }
    guard case .add(let form) = destination else { return }
    var syncUp = form.syncUp
    syncUp.attendees.removeAll { $0.name.allSatisfy(\.isWhitespace) }
    if syncUp.attendees.isEmpty {
      syncUp.attendees.append(Attendee(id: environment.uuid()))
    }
    syncUps.append(syncUp)
  }

  /// Opens the detail of `syncUp`.
  public func syncUpTapped(_ syncUp: SyncUp) {
    destination = .detail(SyncUpDetailModel(syncUp: syncUp, environment: environment))
  }

  /// Replaces the list with the samples (the alert's offer).
  public func loadSamplesTapped() {
    destination = nil
    syncUps = SyncUp.samples
  }

  private func bind() {
    guard case .detail(let detail) = destination else { return }
    let id = detail.syncUp.id
    detail.onConfirmDeletion = { [weak self] in
      self?.syncUps.removeAll { $0.id == id }
      self?.destination = nil
    }
    detail.onSyncUpUpdated = { [weak self] syncUp in
      guard let index = self?.syncUps.firstIndex(where: { $0.id == syncUp.id }) else { return }
      self?.syncUps[index] = syncUp
    }
  }

  private func scheduleSave() {
    saving?.cancel()
    saving = Task { [environment, syncUps] in
      do {
        try await environment.continuousClock.sleep(for: .seconds(1))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try environment.fileWriter.writeFile(path: Self.path, contents: encoder.encode(syncUps))
      } catch {}
    }
  }
}
