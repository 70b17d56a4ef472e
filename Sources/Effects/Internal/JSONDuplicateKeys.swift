import Foundation

/// The first key written twice in one object of the JSON `data`: where the object is
/// (`exchanges[1].request.headers`), the key, and the line of its second writing. nil when every
/// object's keys differ, or when `data` stops being JSON before one repeats (the decoder says where).
///
/// `JSONDecoder` keeps one of two values of a key and says nothing; a tape's reader refuses such a
/// file instead, so that what it plays is what the file says.
func duplicateKey(in data: Data) -> (path: String, key: String, line: Int)? {
  enum Frame {
    case object(keys: Set<String>, key: String?, expectingKey: Bool)
    case array(index: Int)
  }
  let bytes = [UInt8](data)
  var stack: [Frame] = []
  var line = 1
  var index = 0

  /// The path of the innermost frame's object (built only for a report: each frame holds its
  /// own step, so that deep nesting costs no more than its depth).
  func path() -> String {
    var path = ""
    for frame in stack.dropLast() {
      switch frame {
      case .object(_, let key, _):
        let name = key ?? ""
        let plain = !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        path += plain ? (path.isEmpty ? name : ".\(name)") : "[\(String(reflecting: String(name.prefix(100))))]"
      case .array(let index):
        path += "[\(index)]"
      }
    }
    return path
  }

  while index < bytes.count {
    let byte = bytes[index]
    switch byte {
    case UInt8(ascii: "\n"):
      line += 1
      index += 1
    case UInt8(ascii: "{"):
      stack.append(.object(keys: [], key: nil, expectingKey: true))
      index += 1
    case UInt8(ascii: "["):
      stack.append(.array(index: 0))
      index += 1
    case UInt8(ascii: "}"), UInt8(ascii: "]"):
      guard !stack.isEmpty else { return nil }
      stack.removeLast()
      index += 1
    case UInt8(ascii: ","):
      switch stack.last {
      case .object(let keys, _, _)?:
        stack[stack.count - 1] = .object(keys: keys, key: nil, expectingKey: true)
      case .array(let position)?:
        stack[stack.count - 1] = .array(index: position + 1)
      case nil:
        return nil
      }
      index += 1
    case UInt8(ascii: "\""):
      // A string: to its closing quote, past escapes.
      var end = index + 1
      var escaped = false
      var hasEscape = false
      while end < bytes.count {
        if escaped {
          escaped = false
        } else if bytes[end] == UInt8(ascii: "\\") {
          escaped = true
          hasEscape = true
        } else if bytes[end] == UInt8(ascii: "\"") {
          break
        }
        end += 1
      }
      guard end < bytes.count else { return nil }
      if case .object(var keys, _, true)? = stack.last {
        let literal = bytes[index...end]
        let key: String
        if hasEscape {
          guard let decoded = try? JSONDecoder().decode(String.self, from: Data(literal)) else { return nil }
          key = decoded
        } else {
          key = String(decoding: literal.dropFirst().dropLast(), as: UTF8.self)
        }
        guard keys.insert(key).inserted else {
          let path = path()
          return (path.isEmpty ? "the top level" : path, key, line)
        }
        stack[stack.count - 1] = .object(keys: keys, key: key, expectingKey: false)
      }
      index = end + 1
    default:
      index += 1
    }
  }
  return nil
}

/// The line where the JSON `data` first nests deeper than `limit` objects and arrays; nil when it
/// never does. Strings are skipped, escapes and all.
func lineNestedTooDeep(in data: Data, limit: Int) -> Int? {
  var depth = 0
  var line = 1
  var strings = JSONStrings()
  for byte in data where !strings.isInString(after: byte) {
    switch byte {
    case UInt8(ascii: "\n"): line += 1
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      depth += 1
      if depth > limit { return line }
    case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
    default: break
    }
  }
  return nil
}

/// Where the strings of JSON are, byte by byte: fed every byte in order, it says whether that byte
/// is part of a string (its quotes included), past escaped quotes.
struct JSONStrings {
  private var inString = false
  private var escaped = false

  mutating func isInString(after byte: UInt8) -> Bool {
    if inString {
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        inString = false
      }
      return true
    }
    if byte == UInt8(ascii: "\"") {
      inString = true
      return true
    }
    return false
  }
}
