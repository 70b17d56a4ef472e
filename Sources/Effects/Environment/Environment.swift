import Foundation

/// Everything code reads from the world — its co-effects — and everything effects act on, in one
/// value.
///
/// App code reads the clock, the bundle, files, defaults and the scheduler through an
/// `Environment` instead of reaching for `Date()`, `Bundle.main` or `UserDefaults.standard`. The
/// live ``Interpreter`` performs effects on the same environment: the files it writes, the console
/// it prints to and the analytics it tracks are the environment's ``fileWriter``, ``console`` and
/// ``events``. Production uses ``live``; a test passes an environment whose every input and output
/// it controls, in memory.
///
/// ```swift
/// // Before: hidden inputs, impossible to test without a real bundle and disk.
/// func compute(file: String) -> Int {
///   let value = Bundle.main.path(forResource: file, ofType: nil)
///     .flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }
///     .flatMap { Int($0) } ?? 0
///   return value * value
/// }
///
/// // After: the same decision, reading the world through the environment.
/// func compute(file: String, environment: Environment = .current) -> Int {
///   let value = environment.bundle.path(forResource: file, ofType: nil)
///     .flatMap { try? environment.fileReader.string(atPath: $0) }
///     .flatMap { Int($0) } ?? 0
///   return value * value
/// }
/// ```
///
/// Reach it by passing it explicitly, or read ``current``, which `withEnvironment(_:operation:)`
/// overrides for one scope (a test, a request) without leaking into others.
///
/// Every co-effect, the built-in ones included, is a ``CoeffectKey`` with a live value and a test
/// value, read through a property in an extension: an app adds its own (an API client, feature
/// flags) the way the library defines `clock` or `defaults`.
///
/// `Environment` is a value: copies are independent, and changing a field of a copy never changes
/// the original. It is cheap to copy (one reference) and cheap to read.
///
/// In a SwiftUI file, `Environment` is also the name of SwiftUI's property wrapper. Import the
/// wrapper by name next to this module and both resolve:
///
/// ```swift
/// import Effects
/// import struct SwiftUI.Environment
/// ```
public struct Environment: Sendable {
  private var storage: Storage

  /// An environment that answers every co-effect with its live value, or, given a test context,
  /// as that context says.
  package init(context: TestContext? = nil) {
    var contents = Contents(context: context)
    if context == nil { contents.storeLiveValues() }
    storage = Storage(contents)
  }

  /// The app-defined co-effect stored under `key`.
  ///
  /// A key that was never set answers its `liveValue`, or, in a test environment, its `testValue`
  /// (reporting an issue when the key declares none; see ``CoeffectKey``).
  ///
  /// ```swift
  /// environment[APIClientKey.self] = MockAPIClient()
  /// ```
  public subscript<Key: CoeffectKey>(key: Key.Type) -> Key.Value {
    get {
      if let box = storage.contents.keyed[ObjectIdentifier(key)] {
        // Only the setter below stores under this identifier, and always a box of `Key.Value`.
        return unsafeDowncast(box, to: CoeffectBox<Key.Value>.self).value
      }
      return resolve(key, builtIn: nil)
    }
    set {
      update { contents in
        contents.keyed[ObjectIdentifier(key)] = CoeffectBox(newValue)
        contents.decorations[ObjectIdentifier(key)] = nil
      }
    }
  }

  /// A built-in co-effect: the same rules as an app's key, stored at the key's slot so that a read
  /// is an index, not a hash lookup.
  ///
  /// The stored box is read back with `unsafeDowncast`, not a checked `as!`, because it pays in
  /// the benchmark `read.scoped.effects`.
  package subscript<Key: BuiltInKey>(builtIn key: Key.Type) -> Key.Value {
    @inline(__always)
    get {
      let slots = storage.contents.slots
      let slot = Key.slot
      if slot < slots.count, let box = slots[slot] {
        // Only the setter below stores at this slot, and always a box of `Key.Value`.
        return unsafeDowncast(box, to: CoeffectBox<Key.Value>.self).value
      }
      return resolve(key, builtIn: (Key.member, slot))
    }
    set {
      update { $0.store(CoeffectBox(newValue), for: key) }
    }
  }

  /// The value of a key this environment was not given: as its test context says (reporting what
  /// it must), else the key's live value; then through the decoration, if any.
  @inline(never)
  private func resolve<Key: CoeffectKey>(_ key: Key.Type, builtIn: BuiltIn?) -> Key.Value {
    let contents = storage.contents
    var value: Key.Value
    if let context = contents.context {
      value = context.resolve(key, builtIn: builtIn)
    } else {
      value = Key.liveValue
    }
    if !contents.decorations.isEmpty,
      let decoration = contents.decorations[ObjectIdentifier(key)] as? Decoration<Key.Value>
    {
      value = decoration.transform(value)
    }
    return value
  }

  private mutating func update(_ change: (inout Contents) -> Void) {
    var contents = storage.contents
    change(&contents)
    storage = Storage(contents)
  }

  /// A copy whose `Key` co-effect is `transform`ed — for test support, which wraps co-effects to
  /// log their reads (`recording(into:)`).
  ///
  /// A key this environment was given is wrapped now. A key it was not given is wrapped when it is
  /// read, after it resolves: so a co-effect of `Environment.unimplemented()` that the test did not
  /// set still reports when the code under test reads it, and at that line. A second decoration
  /// wraps the first. Setting the key on the copy replaces the wrapped value;
  /// ``set(_:keepingDecoration:)`` wraps the new value instead.
  package func decorating<Key: BuiltInKey>(
    _ key: Key.Type,
    with transform: @escaping @Sendable (Key.Value) -> Key.Value
  ) -> Environment {
    var copy = self
    copy.update { contents in
      let slot = Key.slot
      let decoration: Decoration<Key.Value>
      if let inner = contents.decorations[ObjectIdentifier(key)] as? Decoration<Key.Value> {
        decoration = Decoration { transform(inner.transform($0)) }
      } else {
        decoration = Decoration(transform: transform)
      }
      if slot < contents.slots.count, let box = contents.slots[slot] {
        let value = unsafeDowncast(box, to: CoeffectBox<Key.Value>.self).value
        contents.store(CoeffectBox(transform(value)), for: key)
      }
      // Kept for a key given too: a value set with `set(_:keepingDecoration:)` is wrapped by it.
      contents.decorations[ObjectIdentifier(key)] = decoration
    }
    return copy
  }

  /// Sets the `Key` co-effect to `value` wrapped as ``decorating(_:with:)`` wrapped it, if it did:
  /// for test support, which moves an environment onto a virtual-time scope's scheduler without
  /// dropping what logs its reads.
  package mutating func set<Key: BuiltInKey>(_ key: Key.Type, keepingDecoration value: Key.Value) {
    set([BuiltInValue(key, value)])
  }

  /// A built-in co-effect and the value ``set(_:)`` gives it.
  package struct BuiltInValue {
    fileprivate let store: (inout Contents) -> Void

    /// `value` for `key`, wrapped as ``Environment/decorating(_:with:)`` wrapped the key, if it did.
    package init<Key: BuiltInKey>(_ key: Key.Type, _ value: Key.Value) {
      store = { contents in
        let decoration =
          contents.decorations.isEmpty ? nil : contents.decorations[ObjectIdentifier(key)] as? Decoration<Key.Value>
        contents.store(CoeffectBox(decoration?.transform(value) ?? value), for: key)
        if let decoration { contents.decorations[ObjectIdentifier(key)] = decoration }
      }
    }
  }

  /// Sets several built-in co-effects as ``set(_:keepingDecoration:)`` sets one, with one copy
  /// of the contents for all of them. Test support makes an environment for every virtual-time
  /// scope: setting its six co-effects one after another copied the contents six times, a fifth
  /// of an empty scope's instructions in a debug build, where the copy is unspecialised (#40).
  package mutating func set(_ values: [BuiltInValue]) {
    update { contents in
      for value in values { value.store(&contents) }
    }
  }

  /// The value this environment was given for `key`, if any, without resolving or reporting.
  package func given<Key: CoeffectKey>(_ key: Key.Type, builtIn: BuiltIn?) -> Key.Value? {
    let contents = storage.contents
    let box: (any AnyObject & Sendable)?
    if let slot = builtIn?.slot {
      box = slot < contents.slots.count ? contents.slots[slot] : nil
    } else {
      box = contents.keyed[ObjectIdentifier(key)]
    }
    return box.map { unsafeDowncast($0, to: CoeffectBox<Key.Value>.self).value }
  }

  /// The test context of this environment: how it reports what it cannot answer. Nil in an app.
  package var testContext: TestContext? {
    storage.contents.context
  }
}

extension Environment {
  /// A built-in co-effect, as a read of it is resolved: the property's name and the slot.
  package typealias BuiltIn = (member: String, slot: Int)

  /// What an environment holds: the co-effects it was given, and how to answer the others.
  struct Contents: Sendable {
    /// Built-in co-effects, by ``BuiltInKey/slot``; nil where not given. Made with a place for
    /// every slot, so that storing one never grows it.
    var slots: [(any AnyObject & Sendable)?] = Array(repeating: nil, count: BuiltInSlot.allCases.count)
    /// App co-effects, by key.
    var keyed: [ObjectIdentifier: any AnyObject & Sendable] = [:]
    /// What ``Environment/decorating(_:with:)`` wraps each key in: applied to a key not given when
    /// it is read, and to a value set with ``Environment/set(_:keepingDecoration:)``.
    var decorations: [ObjectIdentifier: any Sendable] = [:]
    /// Set in test environments: how they answer, and report, a co-effect they were not given.
    var context: TestContext?

    /// Stores every built-in co-effect's live value at its slot: the live environment (and the
    /// root, and a copy an app changes) answers a read with an index and a load, never resolving
    /// the key. It pays in the benchmark `read.root.effects`: 276 instructions a read before, the
    /// resolution (finding the key's live value, copying the contents) 99 of them.
    mutating func storeLiveValues() {
      storeLiveValue(of: ClockKey.self)
      storeLiveValue(of: ContinuousClockKey.self)
      storeLiveValue(of: BundleKey.self)
      storeLiveValue(of: FileReaderKey.self)
      storeLiveValue(of: FileWriterKey.self)
      storeLiveValue(of: DefaultsStoreKey.self)
      storeLiveValue(of: SchedulerKey.self)
      storeLiveValue(of: ConsoleKey.self)
      storeLiveValue(of: EventsKey.self)
      storeLiveValue(of: UUIDKey.self)
      storeLiveValue(of: RandomKey.self)
      storeLiveValue(of: NetworkKey.self)
      storeLiveValue(of: CalendarKey.self)
      storeLiveValue(of: LocaleKey.self)
      storeLiveValue(of: TimeZoneKey.self)
    }

    private mutating func storeLiveValue<Key: BuiltInKey>(of key: Key.Type) {
      store(CoeffectBox(Key.liveValue), for: key)
    }

    /// Stores a built-in co-effect; a value set replaces any wrapper waiting for the key.
    mutating func store<Key: BuiltInKey>(_ box: CoeffectBox<Key.Value>, for key: Key.Type) {
      let slot = Key.slot
      if slot >= slots.count { slots += repeatElement(nil, count: slot + 1 - slots.count) }
      slots[slot] = box
      // Most environments have no decoration: no hashing then (every virtual-time scope stores six
      // co-effects, and a debug build hashes with unspecialised code).
      if !decorations.isEmpty { decorations[ObjectIdentifier(key)] = nil }
    }
  }

  /// A wrapper for a key not given yet, applied when it is read.
  struct Decoration<Value: Sendable>: Sendable {
    let transform: @Sendable (Value) -> Value
  }

  /// Immutable storage, replaced on every write, so copying an environment copies one reference
  /// and reading a co-effect is a load and an index, with no copy of the others.
  final class Storage: Sendable {
    let contents: Contents

    init(_ contents: Contents) {
      self.contents = contents
    }
  }
}
