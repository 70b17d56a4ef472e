import Effects
import Foundation

/// The observed properties of an `@Observable` model at one moment, flattened: a nested observable
/// child's properties follow the property that holds it, under its path (`detail?.isSaving`).
///
/// Read with `Mirror`, which shows the storage the `@Observable` macro makes for each observed
/// property (`_isLoading`). Reading it calls no getter: recording a model registers no
/// observation and runs none of the model's code. A property marked `@ObservationIgnored` keeps
/// its own name in the storage, and is left out, as is the macro's registrar.
struct ModelState {
  /// One observed property: its path as a test writes it after `$0`, and its value.
  struct Property {
    let path: String
    let value: Any
    /// The value's structure when it was read, for a value that is not a plain leaf (a number, a
    /// string, an array of them): an object it holds (a child model in an enum's payload, in an
    /// array) may change inside while the value still refers to it, and only its structure, read
    /// then, shows that. Also what a report shows of it, as it was.
    let deep: DeepValue?
    /// Whether the value is an observable child, compared by identity (its properties have paths
    /// of their own).
    let isChild: Bool

    init(path: String, value: Any) {
      self.path = path
      self.value = value
      isChild = ModelState.observableChild(in: value) != nil
      deep = TypeFacts.of(value).isLeaf ? nil : DeepValue(of: value)
    }

    /// The value as a report shows it, as it was read.
    func text(limit: Int = ReportBudget.valueCharacters) -> String {
      deep?.text(limit: limit) ?? ValueShape.bounded(value, limit: limit)
    }
  }

  /// A property that differs between two states: `old` or `new` is nil where the path is absent
  /// (a child that appeared, or went away).
  struct Change {
    let path: String
    /// The property as it was before and after; nil where the path is absent.
    let old: Property?
    let new: Property?
  }

  var properties: [Property]

  /// How deep nested observable children are followed: 16 levels (a cycle stops sooner).
  static let maxDepth = 16

  /// The properties of `model` now.
  init(of model: AnyObject) {
    var properties: [Property] = []
    var visited: Set<ObjectIdentifier> = [ObjectIdentifier(model)]
    Self.append(model, prefix: "", depth: 0, visited: &visited, to: &properties)
    self.properties = properties
  }

  private static func append(
    _ object: AnyObject,
    prefix: String,
    depth: Int,
    visited: inout Set<ObjectIdentifier>,
    to properties: inout [Property]
  ) {
    for (name, value) in observedProperties(of: object) ?? [] {
      let path = prefix + name
      properties.append(Property(path: path, value: value))
      guard depth < maxDepth, let (child, optional) = observableChild(in: value),
        visited.insert(ObjectIdentifier(child)).inserted
      else { continue }
      append(child, prefix: path + (optional ? "?." : "."), depth: depth + 1, visited: &visited, to: &properties)
      visited.remove(ObjectIdentifier(child))
    }
  }

  /// The observed stored properties of `object`, by name, its superclasses' after its own; nil
  /// when it is not a class the `@Observable` macro made observable (no registrar).
  static func observedProperties(of object: Any) -> [(name: String, value: Any)]? {
    var mirror: Mirror? = Mirror(reflecting: object)
    guard mirror?.displayStyle == .class else { return nil }
    var properties: [(name: String, value: Any)] = []
    var observable = false
    while let current = mirror {
      for child in current.children {
        guard let label = child.label, label.hasPrefix("_") else { continue }
        if label == "_$observationRegistrar" {
          observable = true
        } else {
          properties.append((String(label.dropFirst()), child.value))
        }
      }
      mirror = current.superclassMirror
    }
    return observable ? properties : nil
  }

  /// The observable object `value` holds, directly or in an optional, and whether in an optional.
  static func observableChild(in value: Any) -> (object: AnyObject, optional: Bool)? {
    let facts = TypeFacts.of(value)
    if facts.isOptional {
      guard facts.mayHoldAnObject, let unwrapped = unwrap(value), TypeFacts.of(unwrapped).isObservable else {
        return nil
      }
      return (unwrapped as AnyObject, true)
    }
    return facts.isObservable ? (value as AnyObject, false) : nil
  }

  /// `value` out of any optionals around it; nil for `nil`.
  static func unwrap(_ value: Any) -> Any? {
    guard TypeFacts.of(value).isOptional, let optional = value as? any OptionalValue else { return value }
    return optional.wrappedValue.flatMap(unwrap)
  }

  /// The value at `path`, if the state has it.
  subscript(path: String) -> Any? {
    properties.first { $0.path == path }?.value
  }

  /// The property at `path`, if the state has it.
  func property(at path: String) -> Property? {
    properties.first { $0.path == path }
  }

  /// The properties that differ from `old` to this state, in this state's order, then those
  /// only `old` has.
  func changes(since old: ModelState) -> [Change] {
    // The common case: the same paths in the same order (no child came or went).
    if properties.count == old.properties.count, zip(properties, old.properties).allSatisfy({ $0.path == $1.path }) {
      return zip(old.properties, properties).compactMap { previous, property in
        Self.same(previous, property)
          ? nil
          : Change(path: property.path, old: previous, new: property)
      }
    }
    var before: [String: Property] = [:]
    for property in old.properties { before[property.path] = property }
    var changes: [Change] = []
    for property in properties {
      let previous = before.removeValue(forKey: property.path)
      guard let previous else {
        changes.append(Change(path: property.path, old: nil, new: property))
        continue
      }
      if !Self.same(previous, property) {
        changes.append(Change(path: property.path, old: previous, new: property))
      }
    }
    for property in old.properties where before[property.path] != nil {
      changes.append(Change(path: property.path, old: property, new: nil))
    }
    return changes
  }

  /// Whether two readings of one property are the same: by the structures read, where kept.
  static func same(_ a: Property, _ b: Property) -> Bool {
    if a.isChild || b.isChild { return same(a.value, b.value) }
    if let deep = a.deep, let other = b.deep { return deep == other }
    return same(a.value, b.value)
  }

  /// Whether two values of a property are the same: objects by identity (an observable child's
  /// own properties are compared one by one), `Equatable` values by `==`, and any other value by
  /// its structure, as a report spells it. Equal structures count as the same even where `==`
  /// says otherwise, so that a `Double.nan` is not a change on every job.
  static func same(_ a: Any, _ b: Any) -> Bool {
    // The common case first: a value of an `Equatable` type that is neither optional nor an
    // object, compared once by `==`.
    let facts = TypeFacts.of(a)
    if facts.isEquatable, !facts.isOptional, !facts.isClass, let equatable = a as? any Equatable,
      equatable.isEqual(to: b)
    {
      return true
    }
    let a = unwrap(a)
    let b = unwrap(b)
    guard let a, let b else { return a == nil && b == nil }
    if type(of: a) is AnyClass, type(of: b) is AnyClass {
      if (a as AnyObject) === (b as AnyObject) { return true }
      if observedProperties(of: a) != nil { return false }
      if let equatable = a as? any Equatable { return equatable.isEqual(to: b) }
      return false
    }
    if let equatable = a as? any Equatable {
      // `==` decides, but for the one value unequal to itself: `Double.nan` is no change.
      return equatable.isEqual(to: b) || (isNaN(a) && isNaN(b))
    }
    return DeepValue(of: a) == DeepValue(of: b)
  }

  /// Whether `value` is a floating-point NaN.
  static func isNaN(_ value: Any) -> Bool {
    (value as? any BinaryFloatingPoint)?.isNaN ?? false
  }

  /// A value stated by the test, as a report shows it: read now.
  static func text(_ value: Any?) -> String {
    guard let value else { return "(absent)" }
    return TypeFacts.of(value).isLeaf ? ValueShape.bounded(value) : DeepValue(of: value).text()
  }

  /// A property as a report shows it; `(absent)` for a path the state does not have.
  static func text(_ property: Property?) -> String {
    property?.text() ?? "(absent)"
  }

  /// Two readings that differ, as a report shows them: whole, when short; else each from a little
  /// before where they first differ, so that the difference is in what is shown.
  static func texts(_ old: Property?, _ new: Property?) -> (String, String) {
    guard let old, let new else { return (text(old), text(new)) }
    let limit = ReportBudget.valueCharacters
    let a = old.text(limit: 8 * limit)
    let b = new.text(limit: 8 * limit)
    guard a.count > limit || b.count > limit else { return (a, b) }
    let common = zip(a, b).prefix { $0 == $1 }.count
    // The difference shows within the first `limit` characters: each as it reads from its start.
    if common + 40 < limit { return (old.text(limit: limit), new.text(limit: limit)) }
    let skip = max(0, common - 40)
    func from(_ text: String) -> String {
      let rest = skip == 0 ? text : "…" + String(text.dropFirst(skip))
      return rest.count > limit ? String(rest.prefix(limit)) + "…" : rest
    }
    return (from(a), from(b))
  }
}

/// An optional, whatever it wraps: lets a value of type `Any` be looked into.
protocol OptionalValue {
  var wrappedValue: Any? { get }
  static var wrappedType: Any.Type { get }
}

extension Optional: OptionalValue {
  var wrappedValue: Any? { self.map { $0 } }
  static var wrappedType: Any.Type { Wrapped.self }
}

/// What a recording needs to know of a value's type, found once per type: a model is read after
/// every job, and each dynamic cast costs more than the rest of a property's reading together
/// (`model-steps.1e3.effects`).
struct TypeFacts: Sendable {
  var isOptional = false
  var isEquatable = false
  var isClass = false
  /// A class the `@Observable` macro made observable.
  var isObservable = false
  /// An optional whose wrapped type is a class, or any type that may hold one (`Any`, a protocol).
  var mayHoldAnObject = false
  /// A plain `Equatable` value that holds no object, so `==` sees every change: a number, a
  /// string, `Data`, `Date`, a collection or optional of them, a struct of them.
  var isLeaf = false

  private static let known = Locked<[ObjectIdentifier: TypeFacts]>([:])

  static func of(_ value: Any) -> TypeFacts {
    let type = Swift.type(of: value)
    if let facts = known.withLock({ $0[ObjectIdentifier(type)] }) { return facts }
    var facts = TypeFacts()
    facts.isEquatable = value is any Equatable
    facts.isClass = type is AnyClass
    if let optional = type as? any OptionalValue.Type {
      facts.isOptional = true
      let wrapped = optional.wrappedType
      facts.mayHoldAnObject =
        wrapped is AnyClass || wrapped is any OptionalValue.Type || !(wrapped is any Equatable.Type)
    }
    // A class whose superclass is observable, or that is, is so for every instance of the type.
    facts.isObservable = facts.isClass && ModelState.observedProperties(of: value) != nil
    facts.isLeaf = facts.isEquatable && !facts.isClass && (isLeafType(type) || isLeafStruct(value))
    known.withLock { $0[ObjectIdentifier(type)] = facts }
    return facts
  }

  /// Whether values of `type` hold no object, by the type alone.
  static func isLeafType(_ type: Any.Type) -> Bool {
    if type is any BinaryInteger.Type || type is any BinaryFloatingPoint.Type || type is any StringProtocol.Type {
      return true
    }
    let leaves: [Any.Type] = [
      Bool.self, Character.self, Date.self, Data.self, UUID.self, URL.self, Decimal.self, Duration.self,
    ]
    if leaves.contains(where: { $0 == type }) { return true }
    if let container = type as? any ContainerType.Type { return container.elementTypes.allSatisfy(isLeafType) }
    if let optional = type as? any OptionalValue.Type { return isLeafType(optional.wrappedType) }
    return false
  }

  /// Whether `value` is a struct whose stored properties are all of leaf types: then every value
  /// of its type is (a struct's fields do not change type; an enum's payload does, so an enum is
  /// not counted).
  private static func isLeafStruct(_ value: Any) -> Bool {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .struct, !mirror.children.isEmpty else { return false }
    return mirror.children.allSatisfy { isLeafType(Swift.type(of: $0.value)) }
  }
}

/// A collection, whatever its elements: lets a value's type be looked into.
protocol ContainerType {
  static var elementTypes: [Any.Type] { get }
}

extension Array: ContainerType {
  static var elementTypes: [Any.Type] { [Element.self] }
}

extension Set: ContainerType {
  static var elementTypes: [Any.Type] { [Element.self] }
}

extension Dictionary: ContainerType {
  static var elementTypes: [Any.Type] { [Key.self, Value.self] }
}

extension Equatable {
  /// Whether `other` is of this type and equal to it.
  func isEqual(to other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}
