import Effects
import Foundation

/// A value as failure messages spell it, shaped like Swift code: `.loaded(User(id: "42", name: "Blob"))`
/// on one line, or one property per line, for a line diff of two states:
///
/// ```text
/// .loaded(
///   User(
///     id: "42"
///     name: "Blob"
///   )
/// )
/// ```
///
/// Built from the value's `Mirror`, so a type's own `description` (a message, say) does not hide
/// what it holds: enum cases start with a dot, structs and classes show their type and stored
/// properties, strings are quoted, durations are written as ``Swift/Duration/literal``, and the
/// entries of sets and dictionaries are sorted, so equal values always read the same.
indirect enum ValueShape {
  /// A value shown by one piece of text: a string, a number, a case without payload.
  case leaf(String)
  /// A value that holds others: `open`, its children (each with its label, if any), `close`.
  case group(open: String, close: String, children: [(label: String?, shape: ValueShape)])

  /// How deep nested values are followed (a class may refer to itself).
  private static let maxDepth = 24

  /// The shape of `value`.
  init(of value: Any) {
    self = Self.shape(of: value, depth: 0)
  }

  /// The value on one line: `User(id: "42", name: "Blob")`.
  var oneLine: String {
    switch self {
    case .leaf(let text):
      return text
    case .group(let open, let close, let children):
      let inner = children.map { child in (child.label.map { "\($0): " } ?? "") + child.shape.oneLine }
      return open + inner.joined(separator: ", ") + close
    }
  }

  /// The value on several lines, each child on its own line, indented by two spaces per level. A
  /// group with no children stays on one line (`[]`).
  var lines: [String] {
    var lines: [String] = []
    append(to: &lines, prefix: "", indent: "")
    return lines
  }

  private func append(to lines: inout [String], prefix: String, indent: String) {
    switch self {
    case .leaf(let text):
      lines.append(indent + prefix + text)
    case .group(let open, let close, let children):
      guard !children.isEmpty else {
        lines.append(indent + prefix + open + close)
        return
      }
      lines.append(indent + prefix + open)
      for child in children {
        child.shape.append(to: &lines, prefix: child.label.map { "\($0): " } ?? "", indent: indent + "  ")
      }
      lines.append(indent + close)
    }
  }

  private static func shape(of value: Any, depth: Int) -> ValueShape {
    if let leaf = leafText(of: value) { return .leaf(leaf) }
    guard depth < maxDepth else { return .leaf("…") }
    let mirror = Mirror(reflecting: value)
    func children(_ mirror: Mirror) -> [(label: String?, shape: ValueShape)] {
      mirror.children.map { child in
        (label: child.label.flatMap { $0.hasPrefix(".") ? nil : $0 }, shape: shape(of: child.value, depth: depth + 1))
      }
    }
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first else { return .leaf("nil") }
      return shape(of: wrapped.value, depth: depth)
    case .enum:
      guard let payload = mirror.children.first, let name = payload.label else {
        return .leaf("." + describe(value))
      }
      let payloadMirror = Mirror(reflecting: payload.value)
      if payloadMirror.displayStyle == .tuple {
        return .group(open: ".\(name)(", close: ")", children: children(payloadMirror))
      }
      return .group(open: ".\(name)(", close: ")", children: [(nil, shape(of: payload.value, depth: depth + 1))])
    case .collection:
      return .group(open: "[", close: "]", children: children(mirror))
    case .set:
      return .group(open: "[", close: "]", children: children(mirror).sorted { $0.shape.oneLine < $1.shape.oneLine })
    case .dictionary:
      guard !mirror.children.isEmpty else { return .leaf("[:]") }
      let entries = mirror.children.map { entry -> (label: String?, shape: ValueShape) in
        let pair = Array(Mirror(reflecting: entry.value).children)
        guard pair.count == 2 else { return (nil, shape(of: entry.value, depth: depth + 1)) }
        return (shape(of: pair[0].value, depth: depth + 1).oneLine, shape(of: pair[1].value, depth: depth + 1))
      }
      return .group(open: "[", close: "]", children: entries.sorted { ($0.label ?? "") < ($1.label ?? "") })
    case .tuple:
      return .group(open: "(", close: ")", children: children(mirror))
    default:
      // An `@Observable` class shows its observed properties by their own names: not the macro's
      // storage names, its registrar, or what is `@ObservationIgnored`.
      if mirror.displayStyle == .class, let observed = ModelState.observedProperties(of: value) {
        let children = observed.map { (label: Optional($0.name), shape: shape(of: $0.value, depth: depth + 1)) }
        return .group(open: "\(type(of: value))(", close: ")", children: children)
      }
      guard !mirror.children.isEmpty else { return .leaf(describe(value)) }
      return .group(open: "\(type(of: value))(", close: ")", children: children(mirror))
    }
  }

  /// The text of a value that is shown whole, not by its parts; nil for any other.
  private static func leafText(of value: Any) -> String? {
    switch value {
    case let duration as Duration: duration.literal
    case is String, is Substring, is Character: describe(value)
    case is Bool, is any BinaryInteger, is any BinaryFloatingPoint: describe(value)
    case is Date, is URL, is UUID, is Data, is Decimal: describe(value)
    default: nil
    }
  }
}

/// `value` on one line, shaped like Swift code (see ``ValueShape``): `.fetched(User(id: "42"))`.
func spelled(_ value: Any) -> String {
  ValueShape(of: value).oneLine
}

extension ValueShape {
  /// `value` on one line, within `limit` characters and an ellipsis, spelled from no more of it
  /// than that needs: a collection of a million entries spells its first entries only.
  static func bounded(_ value: Any, limit: Int = ReportBudget.valueCharacters) -> String {
    let mirror = Mirror(reflecting: value)
    guard [.collection, .set, .dictionary].contains(mirror.displayStyle), mirror.children.count > 8 else {
      let text = spelled(value)
      return text.count > limit ? String(text.prefix(limit)) + "…" : text
    }
    // Entries while they fit, then how many there are in all.
    let count = mirror.children.count
    var text = "["
    var shown = 0
    for child in mirror.children {
      let entry = spelled(child.value)
      guard text.count + entry.count <= limit else { break }
      text += (shown == 0 ? "" : ", ") + entry
      shown += 1
    }
    guard shown < count else { return text + "]" }
    return text + (shown == 0 ? "" : ", ") + "…] (\(count) entries)"
  }
}
