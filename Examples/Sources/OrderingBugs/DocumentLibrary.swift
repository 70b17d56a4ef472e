/// Shape 4's await: renders the previews the document index shows, on its own actor, off the main
/// one. ``InconsistentDocumentLibrary`` awaits it between its two writes (the bug);
/// ``DocumentLibrary``, before both (the fix).
public actor PreviewRenderer {
  /// A renderer.
  public init() {}

  /// The preview of `text`: its first line, cut to 20 characters.
  public func preview(of text: String) -> String {
    String(text.prefix { $0 != "\n" }.prefix(20))
  }
}

/// Shape 4, a cancellation that lands between two steps. Saving writes the file, awaits the
/// document's preview, stops if the save was cancelled meanwhile, then adds the document to the
/// index: a save cancelled during that await leaves a file the index does not list.
///
/// The fix, ``DocumentLibrary``: await everything first, stop there if cancelled, then make both
/// writes with no await and no stop between them.
@MainActor public final class InconsistentDocumentLibrary {
  /// The documents' texts, by name.
  public private(set) var files: [String: String] = [:]
  /// The documents' previews, by name: what Recents and search show.
  public private(set) var index: [String: String] = [:]
  private let renderer: PreviewRenderer

  /// An empty library, whose previews `renderer` renders.
  public init(renderer: PreviewRenderer = PreviewRenderer()) {
    self.renderer = renderer
  }

  /// Saves `text` as `name`, and indexes it; nothing, if the save is cancelled before it starts.
  /// The bug: cancelled during its await, it leaves the file unindexed; the fix awaits first.
  public func save(_ text: String, as name: String) async throws {
    try Task.checkCancellation()
    files[name] = text
    let preview = await renderer.preview(of: text)
    // The bug: a cancellation that landed during the await stops the save between its two writes.
    try Task.checkCancellation()
    index[name] = preview
  }
}

/// Shape 4, fixed: ``InconsistentDocumentLibrary`` rendering the preview first, then writing the
/// file and the index together: a cancelled save writes both or neither.
@MainActor public final class DocumentLibrary {
  /// The documents' texts, by name.
  public private(set) var files: [String: String] = [:]
  /// The documents' previews, by name: what Recents and search show.
  public private(set) var index: [String: String] = [:]
  private let renderer: PreviewRenderer

  /// An empty library, whose previews `renderer` renders.
  public init(renderer: PreviewRenderer = PreviewRenderer()) {
    self.renderer = renderer
  }

  /// Saves `text` as `name`, and indexes it; nothing, if the save is cancelled before it writes.
  /// The fix: the await comes first, then both writes, with nothing between them.
  public func save(_ text: String, as name: String) async throws {
    let preview = await renderer.preview(of: text)
    try Task.checkCancellation()
    files[name] = text
    index[name] = preview
  }
}
