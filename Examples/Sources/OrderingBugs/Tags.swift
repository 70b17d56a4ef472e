public import Effects

/// Shape 3's store: the tags of a note, as the device keeps them. ``LosingTagsModel`` reads them and
/// writes back a copy (the bug); ``TagsModel`` changes them in place (the fix).
public actor TagStore {
  /// The tags stored: what a lost update loses one of.
  public private(set) var tags: Set<String>

  /// A store holding `tags`.
  public init(_ tags: Set<String> = []) {
    self.tags = tags
  }

  /// Replaces the tags stored with `tags`: how ``LosingTagsModel`` writes back the copy it read,
  /// the bug.
  public func save(_ tags: Set<String>) {
    self.tags = tags
  }

  /// Adds `tag` to the tags stored, in one step: the fix of ``LosingTagsModel/add(_:)``.
  public func insert(_ tag: String) {
    tags.insert(tag)
  }

  /// Adds `others` to the tags stored, in one step: the fix of ``LosingTagsModel/sync()``.
  public func merge(_ others: Set<String>) {
    tags.formUnion(others)
  }
}

/// Shape 3, a lost update between two tasks. Adding a tag and syncing with the server each read the
/// stored tags, await, and write back what they read plus their change: when both read before
/// either writes, the second write loses the first one's change.
///
/// The fix, ``TagsModel``: change the tags inside the store, in one step (``TagStore/insert(_:)``,
/// ``TagStore/merge(_:)``), never write back a copy read before an await.
@MainActor public final class LosingTagsModel {
  private let store: TagStore
  private let network: any Network

  /// A model of the tags in `store`, synced through `environment`'s network.
  public init(store: TagStore, environment: Environment = .current) {
    self.store = store
    network = environment.network
  }

  /// Adds `tag` to the note. The bug: reads, awaits, writes back; the fix inserts in the store.
  public func add(_ tag: String) async {
    var tags = await store.tags
    tags.insert(tag)
    // The bug: writes back a copy read before an await.
    await store.save(tags)
  }

  /// Adds the tags the server has to the note's. The bug: reads, awaits, writes back; the fix
  /// merges in the store.
  public func sync() async throws {
    let remote = try await remoteTags(from: network)
    var tags = await store.tags
    tags.formUnion(remote)
    // The bug: writes back a copy read before an await.
    await store.save(tags)
  }
}

/// Shape 3, fixed: ``LosingTagsModel`` changing the tags inside the store, in one step.
@MainActor public final class TagsModel {
  private let store: TagStore
  private let network: any Network

  /// A model of the tags in `store`, synced through `environment`'s network.
  public init(store: TagStore, environment: Environment = .current) {
    self.store = store
    network = environment.network
  }

  /// Adds `tag` to the note. The fix: one step in the store, no copy written back.
  public func add(_ tag: String) async {
    await store.insert(tag)
  }

  /// Adds the tags the server has to the note's. The fix: one step in the store, no copy written
  /// back.
  public func sync() async throws {
    await store.merge(try await remoteTags(from: network))
  }
}

/// Where the server keeps the note's tags, one a line: what shape 3's sync reads.
public let remoteTagsURL = "https://notes.example.com/notes/1/tags"

private func remoteTags(from network: any Network) async throws -> Set<String> {
  let text = try await network.send(.get(remoteTagsURL)).text ?? ""
  return Set(text.split(separator: "\n").map(String.init))
}
