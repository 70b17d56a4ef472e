public import Effects

/// The editor of one note: it saves two seconds after the last edit (a debounce), through an
/// ``Uploader`` that retries, refreshes the list of notes every thirty seconds while it is shown,
/// and follows the changes other devices make to the note.
@MainActor public final class NoteEditorModel {
  public enum Status: Equatable, Sendable {
    case idle, saving, saved, failed
  }

  public private(set) var note: Note
  public private(set) var status = Status.idle
  /// The notes, as the last refresh found them.
  public private(set) var notes: [Note] = []

  private let environment: Environment
  private let uploader: Uploader
  private var autosave: Task<Void, Never>?
  private var refreshing: ScheduledWork?
  private var following: Task<Void, Never>?

  public init(note: Note, environment: Environment = .current) {
    self.note = note
    self.environment = environment
    uploader = Uploader(environment: environment)
  }

  /// Changes the text, and saves it once the user has stopped typing for two seconds.
  public func edit(_ text: String) {
    note.text = text
    autosave?.cancel()
    autosave = Task { [environment, uploader, note] in
      do { try await environment.continuousClock.sleep(for: .seconds(2)) } catch { return }
      status = .saving
      do {
        try await uploader.upload(note)
        status = .saved
      } catch is CancellationError {
      } catch {
        status = .failed
      }
    }
  }

  /// Refreshes the list now and then every thirty seconds, until ``stop()``.
  public func startRefreshing() {
    refreshing = environment.scheduler.schedule(after: .zero, every: .seconds(30)) { @MainActor [weak self] in
      self?.refresh()
    }
  }

  /// Applies each change another device makes to the note, as `changes` delivers them, until
  /// ``stop()``.
  public func follow(_ changes: AsyncStream<Note>) {
    following?.cancel()
    following = Task { [weak self] in
      for await change in changes {
        self?.note = change
      }
    }
  }

  /// Stops refreshing and following, and drops a save not sent yet.
  public func stop() {
    refreshing?.cancel()
    refreshing = nil
    following?.cancel()
    following = nil
    autosave?.cancel()
  }

  private func refresh() {
    Task { [environment] in
      if let notes = try? await NotesAPI(environment: environment).list() { self.notes = notes }
    }
  }
}
