import Effects
import Foundation

/// A value's whole structure, read at one moment: what a step keeps of a property that is not a
/// plain value (`==` on it could miss a change inside, or there is no `==`).
///
/// Each part is a piece of the structure in order: an `Equatable` leaf kept as a copy and compared
/// with `==` (so `Data` and `Date` compare exactly, not as they print), an object by identity
/// followed by its properties as they were then (an observable one's observed properties), and
/// the type or case that opens each group. Read once per step, it shows a change made inside an
/// object held in an enum's payload or an array, which a later reading of the same object cannot.
/// Bounded: an object already on the way down is not followed again (a cycle), and past
/// ``budget`` parts the rest is one ``Part/cut`` part.
struct DeepValue: Equatable {
  enum Part: Equatable {
    /// The start of a group, as a report writes it: `User(`, `[`, `.loaded(`.
    case open(String)
    /// Its end: `)` or `]`.
    case close(String)
    case label(String)
    case leaf(Leaf)
    case object(ObjectIdentifier, String)
    /// A value with nothing inside: `nil`, a case without payload.
    case word(String)
    /// The rest, not read: the budget ran out, or the object is already on the way down.
    case cut
  }

  /// An `Equatable` value, compared by `==`; two `Double.nan` are equal too.
  struct Leaf: Equatable {
    let value: any Equatable

    static func == (one: Leaf, other: Leaf) -> Bool {
      one.value.isEqual(to: other.value) || (ModelState.isNaN(one.value) && ModelState.isNaN(other.value))
    }
  }

  /// How many parts a value is read to: 20,000.
  static let budget = 20_000

  private(set) var parts: [Part] = []

  init(of value: Any) {
    var budget = Self.budget
    var path: Set<ObjectIdentifier> = []
    read(value, budget: &budget, path: &path)
  }

  private mutating func read(_ value: Any, budget: inout Int, path: inout Set<ObjectIdentifier>) {
    guard budget > 0 else {
      if parts.last != .cut { parts.append(.cut) }
      return
    }
    budget -= 1
    let facts = TypeFacts.of(value)
    if facts.isLeaf, let leaf = value as? any Equatable {
      parts.append(.leaf(Leaf(value: leaf)))
      return
    }
    if facts.isClass {
      let object = value as AnyObject
      let id = ObjectIdentifier(object)
      parts.append(.object(id, "\(type(of: value))"))
      guard path.insert(id).inserted else {
        parts.append(.cut)
        return
      }
      defer { path.remove(id) }
      let children: [(String?, Any)] =
        ModelState.observedProperties(of: value)?.map { ($0.name, $0.value) }
        ?? Mirror(reflecting: value).children.map { ($0.label, $0.value) }
      readChildren(children, budget: &budget, path: &path)
      parts.append(.close(")"))
      return
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first else {
        parts.append(.word("nil"))
        return
      }
      read(wrapped.value, budget: &budget, path: &path)
    case .enum:
      guard let payload = mirror.children.first else {
        parts.append(.word(".\(value)"))
        return
      }
      parts.append(.open(".\(payload.label ?? "")("))
      let payloadMirror = Mirror(reflecting: payload.value)
      if payloadMirror.displayStyle == .tuple {
        let fields = payloadMirror.children.map { ($0.label.flatMap { $0.hasPrefix(".") ? nil : $0 }, $0.value) }
        readChildren(fields, budget: &budget, path: &path)
      } else {
        read(payload.value, budget: &budget, path: &path)
      }
      parts.append(.close(")"))
    case .dictionary, .set:
      // Entries in a fixed order: by how each reads, so two equal dictionaries read alike.
      let entries = mirror.children.map { DeepValue(of: $0.value) }.sorted { "\($0.parts)" < "\($1.parts)" }
      parts.append(.open("["))
      for entry in entries where budget > 0 {
        budget -= entry.parts.count
        parts += entry.parts
      }
      parts.append(.close("]"))
    case .collection:
      parts.append(.open("["))
      readChildren(mirror.children.map { (nil, $0.value) }, budget: &budget, path: &path)
      parts.append(.close("]"))
    case .tuple:
      parts.append(.open("("))
      readChildren(
        mirror.children.map { ($0.label.flatMap { $0.hasPrefix(".") ? nil : $0 }, $0.value) },
        budget: &budget,
        path: &path
      )
      parts.append(.close(")"))
    default:
      guard !mirror.children.isEmpty else {
        parts.append(.word(String(describing: value)))
        return
      }
      parts.append(.open("\(type(of: value))("))
      readChildren(mirror.children.map { ($0.label, $0.value) }, budget: &budget, path: &path)
      parts.append(.close(")"))
    }
  }

  private mutating func readChildren(_ children: [(String?, Any)], budget: inout Int, path: inout Set<ObjectIdentifier>)
  {
    for (label, child) in children {
      if let label { parts.append(.label(label)) }
      read(child, budget: &budget, path: &path)
    }
  }

  /// The value as a report shows it, on one line, as it was read: within `limit` characters and an
  /// ellipsis.
  func text(limit: Int = ReportBudget.valueCharacters) -> String {
    var text = ""
    var needsComma: [Bool] = []
    func separate() {
      if needsComma.last == true { text += ", " }
      if !needsComma.isEmpty { needsComma[needsComma.count - 1] = true }
    }
    var labelled = false
    for part in parts {
      guard text.count <= limit else { break }
      switch part {
      case .open(let opening):
        if !labelled { separate() }
        labelled = false
        text += opening
        needsComma.append(false)
      case .object(_, let name):
        if !labelled { separate() }
        labelled = false
        text += name + "("
        needsComma.append(false)
      case .close(let closing):
        text += closing
        _ = needsComma.popLast()
      case .label(let label):
        separate()
        text += label + ": "
        labelled = true
      case .leaf(let leaf):
        if !labelled { separate() }
        labelled = false
        text += spelled(leaf.value)
      case .word(let word):
        if !labelled { separate() }
        labelled = false
        text += word
      case .cut:
        if !labelled { separate() }
        labelled = false
        text += "…"
      }
    }
    guard text.count > limit else { return text }
    return String(text.prefix(limit)) + "…"
  }
}
