import Effects
import Observation

/// What the closure of one `assert` stated, by path, and what it could not state: a key path that
/// names no observed stored property, or one the tester cannot tell apart from another.
final class ModelStatements {
  /// The model before and after the change checked.
  let before: ModelState
  let after: ModelState
  /// Values the model held: what can set a property apart from another holding the same value.
  let history: () -> [Any]
  /// The properties stated, in the order first stated, each with its last value.
  private(set) var stated: [(path: String, value: Any)] = []
  /// What could not be stated, said once each.
  private(set) var problems: [String] = []

  private init(before: ModelState, after: ModelState, history: @escaping () -> [Any]) {
    self.before = before
    self.after = after
    self.history = history
  }

  /// What `change` states about `model`, a change from `before` to `after`.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  static func collect<Model: AnyObject>(
    _ change: (inout ExpectedModel<Model>) -> Void,
    on model: Model,
    before: ModelState,
    after: ModelState,
    history: @escaping () -> [Any] = { [] }
  ) -> ModelStatements {
    let log = ModelStatements(before: before, after: after, history: history)
    var expected = ExpectedModel(root: model, prefix: "", log: log)
    change(&expected)
    return log
  }

  /// The value stated at `path`, else the value before the change.
  func value(at path: String) -> Any? {
    stated.last { $0.path == path }?.value ?? before[path]
  }

  /// The value stated at `path`, if it was stated.
  func statedValue(at path: String) -> Any? {
    stated.first { $0.path == path }?.value
  }

  func state(_ value: Any, at path: String) {
    if let index = stated.firstIndex(where: { $0.path == path }) {
      stated[index].value = value
    } else {
      stated.append((path, value))
    }
  }

  /// The path of the property `keyPath` names on `root` (a child at `prefix`), or nil, with the
  /// problem kept, when it names none the tester can tell.
  func path<Root: AnyObject, Value>(
    of keyPath: KeyPath<Root, Value>,
    in root: Root,
    prefix: String,
    hint: Any?
  ) -> String? {
    // Read only where a key path is new, and no value of its type can be made to tell.
    let hints = {
      (hint.map { [$0] } ?? []) + self.before.properties.map(\.value) + self.after.properties.map(\.value)
        + self.history()
    }
    switch KeyPathNames.name(of: keyPath, in: root, hints: hints) {
    case .named(let name):
      return prefix + name
    case .probeChanged(let name, let changed):
      note(
        ModelTesterWording.probeChanged(
          Root.self,
          Value.self,
          name: prefix + name,
          changed: changed.map { prefix + $0 }
        )
      )
      return prefix + name
    case .notObserved:
      note(ModelTesterWording.notObserved(Root.self, Value.self))
    case .ambiguous(let names):
      note(ModelTesterWording.ambiguous(Root.self, Value.self, names: names.map { prefix + $0 }))
    }
    return nil
  }

  private func note(_ problem: String) {
    if !problems.contains(problem) { problems.append(problem) }
  }
}

/// Which observed stored property a key path names, found without a name: the key path to an
/// `@Observable` property is a computed one, whose description names no property.
///
/// The candidates are the properties of the key path's type that hold the value it reads. To be
/// sure, the key path writes another value (a `Bool` toggled, a number moved by one, a value the
/// model held) and the value back: the candidate that took it is the property; none took it, the
/// key path names no observed property (`@ObservationIgnored`, computed). The answer is kept for
/// the process: a key path names the same property of every instance. With nothing to write, one
/// candidate is taken as the answer, and not kept.
enum KeyPathNames {
  enum Answer: Equatable {
    case named(String)
    /// A computed property, one marked `@ObservationIgnored`, or one of another type.
    case notObserved
    /// Several properties hold the same value, and the key path could not tell them apart.
    case ambiguous([String])
    /// Found by writing the property and back, which changed other properties (a `didSet`).
    case probeChanged(String, [String])
  }

  private static let known = Locked<[AnyKeyPath: String]>([:])

  static func name<Root: AnyObject, Value>(
    of keyPath: KeyPath<Root, Value>,
    in root: Root,
    hints: () -> [Any]
  ) -> Answer {
    if let name = known.withLock({ $0[keyPath] }) { return name.isEmpty ? .notObserved : .named(name) }
    // A computed property with no setter is not stored storage; an observed property always has a
    // setter, even a `private(set)` one, which the key path's runtime class shows.
    guard let writable = keyPath as? ReferenceWritableKeyPath<Root, Value> else { return .notObserved }
    let properties = ModelState.observedProperties(of: root) ?? []
    let value = root[keyPath: keyPath]
    var typed = properties.filter { type(of: $0.value) == Value.self }
    if typed.isEmpty { typed = properties.filter { $0.value is Value } }
    let candidates = typed.filter { ModelState.same($0.value, value) }.map(\.name)
    guard !candidates.isEmpty else { return .notObserved }
    let other: Value? =
      distinct(from: value) ?? hints().lazy.compactMap { $0 as? Value }.first { !ModelState.same($0, value) }
    guard let other else {
      // Nothing to write that would tell: one candidate is the answer, not kept, so that a later
      // assert that can tell does.
      return candidates.count == 1 ? .named(candidates[0]) : .ambiguous(candidates)
    }
    // Written and written back: the property that took the value is the one. None took it: the
    // key path's setter stores elsewhere (`@ObservationIgnored`, a computed property).
    root[keyPath: writable] = other
    let probed = ModelState.observedProperties(of: root) ?? []
    root[keyPath: writable] = value
    let moved = candidates.filter { name in
      probed.first { $0.name == name }.map { !ModelState.same($0.value, value) } ?? false
    }
    if moved.isEmpty {
      known.withLock { $0[keyPath] = "" }
      return .notObserved
    }
    guard moved.count == 1, let name = moved.first else { return .ambiguous(candidates) }
    known.withLock { $0[keyPath] = name }
    let after = ModelState.observedProperties(of: root) ?? []
    let changed = zip(properties, after).filter { !ModelState.same($0.value, $1.value) }.map(\.0.name)
    return changed.isEmpty ? .named(name) : .probeChanged(name, changed)
  }

  /// A value of `value`'s type other than it, made from it where the type says how: a `Bool`
  /// toggled, a number moved by one, a string lengthened, an optional emptied, a collection
  /// emptied. Nil for any other type.
  static func distinct<Value>(from value: Value) -> Value? {
    func moved<Number: BinaryInteger>(_ number: Number) -> Value? {
      // Toward zero: never past the type's bounds.
      (number == 0 ? number + 1 : number > 0 ? number - 1 : number + 1) as? Value
    }
    func moved<Number: BinaryFloatingPoint>(_ number: Number) -> Value? {
      (number == 0 ? 1 : 0) as? Value
    }
    func emptied<Collection: RangeReplaceableCollection>(_ collection: Collection) -> Value? {
      collection.isEmpty ? nil : Collection() as? Value
    }
    switch value {
    case let flag as Bool: return !flag as? Value
    case let text as String: return text + "·" as? Value
    case let number as any BinaryInteger: return moved(number)
    case let number as any BinaryFloatingPoint: return moved(number)
    case let collection as any RangeReplaceableCollection: return emptied(collection)
    default: break
    }
    if ModelState.unwrap(value) != nil, let none = Value.self as? any ExpressibleByNilLiteral.Type {
      return none.init(nilLiteral: ()) as? Value
    }
    return nil
  }
}
