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
/// let saved = try Interpreter.live.perform(save(note: text))
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
/// Each case is performed by the method of the same name and labels on its target:
/// `.writeFile(path:contents:)` by ``FileWriter/writeFile(path:contents:)``,
/// `.setDefault(_:for:)` by the defaults' `set(_:for:)`, and so on (see
/// ``Interpreter/live(environment:onFailure:)``).
///
/// Its `description` is stable and written to be read in a test failure's diff:
/// `setDefault("dark", for: "theme")`, `track(event: "visited", properties: ["id": "7"])`.
public enum Effect: Hashable, Sendable {
  /// Prints a line on the console (standard output, live): ``Console/print(_:)``.
  case print(String)

  /// Replaces the file at `path` with `contents`: ``FileWriter/writeFile(path:contents:)``.
  case writeFile(path: String, contents: Data)

  /// Removes the file at `path`: ``FileWriter/removeFile(path:)``. Like `rm -rf`, removing a file
  /// that is not there succeeds: the effect asks for the file to be gone. A directory at `path` is
  /// removed with everything in it.
  case removeFile(path: String)

  /// Stores a value under a key's name in the environment's ``Environment/defaults``, as
  /// ``DefaultsStore/set(_:for:)-(DefaultsValue?,String)`` does.
  ///
  /// ```swift
  /// .setDefault("dark", for: "theme")  // a literal is a DefaultsValue: .string("dark")
  /// .setDefault("dark", for: .theme)   // through a DefaultsKey<String>: the same effect
  /// ```
  case setDefault(DefaultsValue, for: String)

  /// Removes the value under a key's name from the environment's ``Environment/defaults``, as
  /// ``DefaultsStore/removeValue(for:)-(String)`` does.
  case removeDefault(for: String)

  /// Tracks an analytics event: ``EventLog/track(event:properties:)``.
  case track(event: String, properties: [String: String])

  /// Sends a request and does not wait for it: an analytics upload, a logout. Performed by the
  /// environment's ``Environment/network`` (``Network/send(_:)-(NetworkRequest)``), in a task of
  /// its own.
  ///
  /// ```swift
  /// .send(.post("https://api.example.com/logout", headers: ["Authorization": "Bearer \(token)"]))
  /// ```
  ///
  /// The request's outcome arrives after ``Interpreter/perform(_:)-([E])`` has returned, so a failure
  /// goes to the live interpreter's `onFailure`: a thrown error as it is (`URLError`…), a status
  /// outside `200..<300` as a ``NetworkStatusError``. Code that needs the response reads
  /// `environment.network` itself instead.
  case send(NetworkRequest)

  /// Performs the effects, in order, once the delay has passed on the environment's
  /// ``Environment/scheduler``.
  ///
  /// ```swift
  /// .after(.seconds(3), [.print("Reminder: your trial ends today")])
  /// ```
  case after(Duration, [Effect])
}
