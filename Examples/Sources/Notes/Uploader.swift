public import Effects

/// Saves notes, retrying a failed save after a backoff of 1, 2 and then 4 seconds on the
/// environment's clock: an actor, so that saves from many edits never interleave.
public actor Uploader {
  /// The waits before each retry.
  public static let backoff: [Duration] = [.seconds(1), .seconds(2), .seconds(4)]

  private let api: NotesAPI
  private let clock: DurationClock
  /// How many times a save was sent, retries included.
  public private(set) var attempts = 0

  public init(environment: Environment = .current) {
    api = NotesAPI(environment: environment)
    clock = environment.continuousClock
  }

  /// Saves `note`, retrying after each backoff; throws the last error when every try failed, and
  /// `CancellationError` when cancelled while it waits.
  public func upload(_ note: Note) async throws {
    var waits = Self.backoff[...]
    while true {
      attempts += 1
      do {
        return try await api.save(note)
      } catch let error where !(error is CancellationError) {
        guard let wait = waits.popFirst() else { throw error }
        try await clock.sleep(for: wait)
      }
    }
  }
}
