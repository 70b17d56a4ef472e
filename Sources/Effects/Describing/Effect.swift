public import Foundation

/// A change to the world, described as data instead of performed.
///
/// Decisions return effects (usually inside an ``Outcome``); an ``Interpreter`` performs them at
/// the boundary. Because an effect is a plain `Hashable` value, a test compares what code *would*
/// do with what it should do, and never touches the disk, the console or an analytics service.
///
/// ```swift
/// func save(note: String) -> Outcome<Bool, Effect> {
///   guard !note.isEmpty else { return .pure(false) }
///   return Outcome(
///     value: true,
///     effects: [
///       .writeFile(path: "/notes/today.txt", contents: Data(note.utf8)),
///       .track(event: "note_saved", properties: ["length": "\(note.count)"]),
///     ]
///   )
/// }
///
/// // At the boundary:
/// let saved = try Interpreter.live().run(save(note: text))
///
/// // In a test:
/// @Test func savingANoteWritesItAndTracksIt() {
///   assertEffects(
///     of: save(note: "hi"),
///     [
///       .writeFile(path: "/notes/today.txt", contents: Data("hi".utf8)),
///       .track(event: "note_saved", properties: ["length": "2"]),
///     ]
///   )
/// }
/// ```
///
/// Apps usually add their own effect enums too; ``Outcome``, ``Interpreter`` and the test
/// assertions work with any effect type, and ``Interpreter/pullback(_:)`` lets an app's enum reuse
/// the interpreter of this one.
///
/// Its `description` is stable and written to be read in a test failure's diff:
/// `setDefault(key: "theme", value: "dark")`, `track(event: "visited", properties: ["id": "7"])`.
public enum Effect: Hashable, Sendable {
  /// Writes a line to the console (standard output, live), through a ``Console``.
  case print(String)

  /// Replaces the file at `path` with `contents`, through a ``FileWriter``.
  case writeFile(path: String, contents: Data)

  /// Removes the file at `path`, through a ``FileWriter``. Like `rm -f`, removing a file that is
  /// not there succeeds: the effect asks for the file to be gone.
  case removeFile(path: String)

  /// Stores `value` under `key` in the environment's ``Environment/defaults``.
  case setDefault(key: String, value: DefaultsValue)

  /// Removes `key` from the environment's ``Environment/defaults``.
  case removeDefault(key: String)

  /// Logs an analytics event, through an ``EventLogging``.
  case track(event: String, properties: [String: String])

  /// Performs the effects, in order, once the delay has passed on the environment's
  /// ``Environment/scheduler``.
  ///
  /// ```swift
  /// .after(.seconds(3), [.print("Reminder: your trial ends today")])
  /// ```
  case after(Duration, [Effect])
}
