/// A ``CoeffectKey`` that the library itself defines: the clock, the bundle, the file system and
/// the other fields of ``Environment``.
///
/// A built-in co-effect is defined exactly like an app's own — a key with a `liveValue` and a
/// `testValue`, and a property of `Environment` that reads and writes `self[key]` — in one file
/// under `BuiltIns/`. Two things are added, both for speed and messages, never for behaviour: a
/// `slot`, so that a read is an index into an array rather than a hash lookup, and the `member` the
/// property is called, so that a message says `Environment.clock` rather than the key's type.
///
/// Adding a built-in co-effect is one new file, a case of ``BuiltInSlot``, and a line in
/// `Environment.Contents.storeLiveValues()` (a key missing there is still read right, through its
/// `liveValue`, only slower):
///
/// ```swift
/// enum UUIDKey: BuiltInKey {
///   static var slot: Int { BuiltInSlot.uuid.rawValue }
///   static let member = "uuid"
///   static var liveValue: any UUIDGenerator { SystemUUIDs() }
///   static var testValue: any UUIDGenerator { IncrementingUUIDs() }
/// }
///
/// extension Environment {
///   public var uuid: any UUIDGenerator {
///     get { self[builtIn: UUIDKey.self] }
///     set { self[builtIn: UUIDKey.self] = newValue }
///   }
/// }
/// ```
package protocol BuiltInKey: CoeffectKey {
  /// Where the environment stores this co-effect: its own case of ``BuiltInSlot``.
  static var slot: Int { get }
  /// The name of the `Environment` property that reads it, for messages: `"clock"`.
  static var member: String { get }
}

/// The storage slots of built-in co-effects: one case per key, its raw value the key's
/// ``BuiltInKey/slot``.
///
/// The slots are constants, not numbers handed out when a key is first used, so that a read
/// of a built-in co-effect costs no lazy initialisation: it pays in the benchmark
/// `read.scoped.effects`.
package enum BuiltInSlot: Int, CaseIterable {
  case clock, continuousClock, bundle, fileReader, fileWriter, defaults, scheduler, console, events
  case uuid, random, network, calendar, locale, timeZone
}

/// A co-effect as the environment stores it: one reference, read back with `unsafeDowncast`
/// because the key that stored it is the key that reads it.
final class CoeffectBox<Value: Sendable>: Sendable {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}
