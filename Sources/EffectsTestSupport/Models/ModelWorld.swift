import Effects
import Foundation

/// What a model did to the world through the test's environment, read from the environment's
/// in-memory doubles: lines printed, events tracked, defaults and files written, requests sent.
/// A ``ModelTester`` reads them each time it settles the scope, as `Effect` values.
///
/// A double the environment does not have (a console of the test's own, the live network) is not
/// read. A write that leaves a default or a file as it was is not seen: the doubles are compared,
/// not tapped.
struct ModelWorld {
  /// The environment's doubles, found once when the tester is made.
  struct Doubles {
    let console: InMemoryConsole?
    let events: InMemoryEventLog?
    let defaults: InMemoryDefaults?
    let files: InMemoryFileSystem?
    let network: StubNetwork?

    /// The doubles of `environment`, read quietly: a field the environment was given, or any
    /// field of a test environment whose fields are doubles (`Environment.test()`). A field of
    /// `Environment.unimplemented()` the test did not set, or of the live environment, is not
    /// read: that read would be reported, and is not the model's.
    init(_ environment: Environment) {
      let doubles: Bool
      switch environment.testContext?.reads {
      case .deterministic, .preview: doubles = true
      default: doubles = false
      }
      func read<Key: BuiltInKey>(_ key: Key.Type, _ field: (Environment) -> Key.Value) -> Key.Value? {
        environment.given(key, builtIn: (Key.member, Key.slot)) ?? (doubles ? field(environment) : nil)
      }
      console = read(ConsoleKey.self, \.console) as? InMemoryConsole
      events = read(EventsKey.self, \.events) as? InMemoryEventLog
      defaults = read(DefaultsStoreKey.self, \.defaults) as? InMemoryDefaults
      files = read(FileWriterKey.self, \.fileWriter) as? InMemoryFileSystem
      network = read(NetworkKey.self, \.network).flatMap(RecordingNetwork.stubs(in:))
    }
  }

  /// `effects` in the order the doubles are read in: by kind (lines printed, events, defaults,
  /// files, requests), and within a kind as given.
  static func inReadingOrder(_ effects: [Effect]) -> [Effect] {
    func rank(_ effect: Effect) -> Int {
      switch effect {
      case .print: 0
      case .track: 1
      case .setDefault, .removeDefault: 2
      case .writeFile, .removeFile: 3
      case .send: 4
      default: 5
      }
    }
    return effects.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
  }

  var lines: [String]
  var events: [InMemoryEventLog.Event]
  var defaults: [String: DefaultsValue]
  var files: [InMemoryFileSystem.Path: Data]
  var requests: [NetworkRequest]

  /// What the doubles hold now (copies that share the doubles' storage until they change).
  init(_ doubles: Doubles) {
    lines = doubles.console?.lines ?? []
    events = doubles.events?.events ?? []
    defaults = doubles.defaults?.values ?? [:]
    files = doubles.files?.files ?? [:]
    requests = doubles.network?.requests ?? []
  }

  /// What `new` holds that `old` did not: what came after it, or all of it when the double was
  /// cleared (or written anew) in between.
  private static func added<Entry: Equatable>(_ new: [Entry], since old: [Entry]) -> ArraySlice<Entry> {
    guard new != old else { return [] }
    guard new.count >= old.count, new.prefix(old.count).elementsEqual(old) else { return new[...] }
    return new[old.count...]
  }

  /// The effects that took the world from `old` to this state, in a fixed order: lines printed,
  /// events tracked, defaults written and removed (by key), files written and removed (by path),
  /// requests sent. A double cleared in between counts from its start.
  func effects(since old: ModelWorld) -> [Effect] {
    var effects: [Effect] = []
    effects += Self.added(lines, since: old.lines).map { .print($0) }
    effects += Self.added(events, since: old.events).map { .track(event: $0.name, properties: $0.properties) }
    if defaults != old.defaults {
      for key in Set(defaults.keys).union(old.defaults.keys).sorted() where defaults[key] != old.defaults[key] {
        effects.append(defaults[key].map { .setDefault($0, for: key) } ?? .removeDefault(for: key))
      }
    }
    if files != old.files {
      for path in Set(files.keys).union(old.files.keys).sorted()
      where files[path] != old.files[path] {
        effects.append(
          files[path].map { .writeFile(path: path.string, contents: $0) } ?? .removeFile(path: path.string)
        )
      }
    }
    effects += Self.added(requests, since: old.requests).map { .send($0) }
    return effects
  }
}
