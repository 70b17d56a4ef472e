public import Effects
import Foundation
public import Observation

/// One sync-up: edit it, delete it, or hold a meeting.
@MainActor @Observable
public final class SyncUpDetailModel {
  /// What the detail screen presents.
  public enum Destination {
    /// The alert that confirms a deletion.
    case confirmDeletion
    /// The form that edits the sync-up.
    case edit(SyncUpFormModel)
  }

  /// What is presented, if anything.
  public var destination: Destination?
  /// Whether the screen should go away (the sync-up was deleted).
  public var isDismissed = false
  /// The sync-up shown. Each change is told to the list through ``onSyncUpUpdated``.
  public var syncUp: SyncUp {
    didSet { onSyncUpUpdated(syncUp) }
  }

  /// Called when the user confirms the deletion.
  @ObservationIgnored public var onConfirmDeletion: () -> Void = {}
  /// Called with the sync-up after each change.
  @ObservationIgnored public var onSyncUpUpdated: (SyncUp) -> Void = { _ in }
  @ObservationIgnored private let environment: Environment

  /// Creates the detail of `syncUp`.
  public init(syncUp: SyncUp, environment: Environment = .current) {
    self.syncUp = syncUp
    self.environment = environment
  }

  /// Asks for confirmation before deleting.
  public func deleteButtonTapped() {
    destination = .confirmDeletion
  }

  /// The user confirmed the deletion: the list removes the sync-up, and the screen goes away.
  public func confirmDeletionTapped() {
    destination = nil
    onConfirmDeletion()
    isDismissed = true
  }

  /// Opens the form on a copy of the sync-up.
  public func editButtonTapped() {
    destination = .edit(SyncUpFormModel(syncUp: syncUp, environment: environment))
  }

  /// Keeps what the form edited.
  public func doneEditingButtonTapped() {
    guard case .edit(let form) = destination else { return }
    syncUp = form.syncUp
    destination = nil
  }
}
