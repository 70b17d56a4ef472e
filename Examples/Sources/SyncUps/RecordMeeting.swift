public import Effects
import Foundation
public import Observation

/// A meeting being held: a timer gives each attendee their share of the time, a sound marks each
/// new speaker, and the meeting ends when the last one's time is up, or when the user ends it.
@MainActor @Observable
public final class RecordMeetingModel {
  /// The alert that asks how to end the meeting early.
  public struct EndMeetingAlert: Hashable, Sendable {
    /// Whether the meeting can be discarded (false once every attendee has spoken).
    public var isDiscardable: Bool

    /// Creates the alert.
    public init(isDiscardable: Bool) {
      self.isDiscardable = isDiscardable
    }
  }

  /// The alert shown, if any: while it is, the timer stands still.
  public var alert: EndMeetingAlert?
  /// Whether the screen should go away.
  public var isDismissed = false
  /// The seconds the meeting has run.
  public var secondsElapsed = 0
  /// Who is speaking, by position in the attendees.
  public var speakerIndex = 0
  /// The sync-up being met.
  public let syncUp: SyncUp

  /// Called with the transcript when the meeting is saved.
  @ObservationIgnored public var onMeetingFinished: (String) async -> Void = { _ in }
  /// Plays the sound that marks a new speaker.
  @ObservationIgnored public var playSound: () -> Void = {}
  @ObservationIgnored private let environment: Environment

  /// Creates a meeting of `syncUp`.
  public init(syncUp: SyncUp, environment: Environment = .current) {
    self.syncUp = syncUp
    self.environment = environment
  }

  /// The time left.
  public var durationRemaining: Duration {
    syncUp.duration - .seconds(secondsElapsed)
  }

  /// Moves to the next speaker; after the last, asks how to end the meeting.
  public func nextButtonTapped() {
    guard speakerIndex < syncUp.attendees.count - 1 else {
      alert = EndMeetingAlert(isDiscardable: false)
      return
    }
    speakerIndex += 1
    playSound()
    secondsElapsed = speakerIndex * Int(syncUp.durationPerAttendee.components.seconds)
  }

  /// Asks how to end the meeting early.
  public func endMeetingButtonTapped() {
    alert = EndMeetingAlert(isDiscardable: true)
  }

  /// Saves the meeting and leaves.
  public func confirmSaveTapped() async {
    alert = nil
    await finish()
  }

  /// Leaves without saving.
  public func confirmDiscardTapped() {
    alert = nil
    isDismissed = true
  }

  /// Runs the timer until the meeting ends: the view's `.task`.
  public func task() async {
    let perAttendee = Int(syncUp.durationPerAttendee.components.seconds)
    while !isDismissed {
      do {
        try await environment.continuousClock.sleep(for: .seconds(1))
      } catch {
        return
      }
      guard alert == nil, !isDismissed else { continue }
      secondsElapsed += 1
      guard secondsElapsed.isMultiple(of: perAttendee) else { continue }
      guard speakerIndex < syncUp.attendees.count - 1 else {
        await finish()
        return
      }
      speakerIndex += 1
      playSound()
    }
  }

  private func finish() async {
    isDismissed = true
    await onMeetingFinished("")
  }
}
