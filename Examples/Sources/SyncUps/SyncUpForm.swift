public import Effects
public import Observation

/// The form that edits a sync-up, for a new one or an existing one: it always offers at least one
/// attendee to fill in.
@MainActor @Observable
public final class SyncUpFormModel {
  /// The sync-up being edited.
  public var syncUp: SyncUp
  @ObservationIgnored private let environment: Environment

  /// Creates a form for `syncUp`; one with no attendee gets an empty one.
  public init(syncUp: SyncUp, environment: Environment = .current) {
    self.syncUp = syncUp
    self.environment = environment
    if self.syncUp.attendees.isEmpty {
      self.syncUp.attendees.append(Attendee(id: environment.uuid()))
    }
  }

  /// Adds an empty attendee to fill in.
  public func addAttendeeButtonTapped() {
    syncUp.attendees.append(Attendee(id: environment.uuid()))
  }
}
