public import Foundation

/// A recurring meeting: who attends, how long it lasts, and the meetings held so far.
public struct SyncUp: Codable, Hashable, Identifiable, Sendable {
  /// The sync-up's identity.
  public var id: UUID
  /// Who speaks, in order.
  public var attendees: [Attendee]
  /// How long a meeting lasts.
  public var duration: Duration
  /// The meetings held, newest first.
  public var meetings: [Meeting]
  /// The sync-up's name.
  public var title: String

  /// Creates a sync-up.
  public init(
    id: UUID,
    attendees: [Attendee] = [],
    duration: Duration = .seconds(300),
    meetings: [Meeting] = [],
    title: String = ""
  ) {
    self.id = id
    self.attendees = attendees
    self.duration = duration
    self.meetings = meetings
    self.title = title
  }

  /// Each attendee's share of the meeting.
  public var durationPerAttendee: Duration {
    duration / max(attendees.count, 1)
  }
}

/// Someone who attends a sync-up.
public struct Attendee: Codable, Hashable, Identifiable, Sendable {
  /// The attendee's identity.
  public var id: UUID
  /// The attendee's name.
  public var name: String

  /// Creates an attendee.
  public init(id: UUID, name: String = "") {
    self.id = id
    self.name = name
  }
}

/// A meeting held, with what was said.
public struct Meeting: Codable, Hashable, Identifiable, Sendable {
  /// The meeting's identity.
  public var id: UUID
  /// When it ended.
  public var date: Date
  /// What was said, as transcribed.
  public var transcript: String

  /// Creates a meeting.
  public init(id: UUID, date: Date, transcript: String) {
    self.id = id
    self.date = date
    self.transcript = transcript
  }
}

extension SyncUp {
  /// The sample sync-ups the list offers when its data failed to load.
  public static let samples: [SyncUp] = [
    SyncUp(
      id: UUID(uuidString: "00000000-0000-0000-0000-00000000D001")!,
      attendees: [Attendee(id: UUID(uuidString: "00000000-0000-0000-0000-00000000A001")!, name: "Ada")],
      duration: .seconds(60),
      title: "Design"
    ),
    SyncUp(
      id: UUID(uuidString: "00000000-0000-0000-0000-00000000D002")!,
      attendees: [Attendee(id: UUID(uuidString: "00000000-0000-0000-0000-00000000A002")!, name: "Grace")],
      duration: .seconds(600),
      title: "Engineering"
    ),
  ]
}
