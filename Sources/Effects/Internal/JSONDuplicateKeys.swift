import Foundation

/// The first key written twice in one object of the JSON `data`: where the object is
/// (`exchanges[1].request.headers`), the key, and the line of its second writing. nil when every
/// object's keys differ, or when `data` stops being JSON before one repeats (the decoder says where).
///
/// `JSONDecoder` keeps one of two values of a key and says nothing; a tape's reader refuses such a
/// file instead, so that what it plays is what the file says.
func duplicateKey(in data: Data) -> (path: String, key: String, line: Int)? {
  enum Frame {
    case object(path: String, keys: Set<String>, key: String?, expectingKey: Bool)
    case array(path: String, index: Int)
  }
  let bytes = [UInt8](data)
  var stack: [Frame] = []
  var line = 1
  var index = 0

  /// The path of the value that starts now, in the innermost frame.
  func childPath() -> String {
    switch stack.last {
    case .object(let path, _, let key, _)?:
      let name = key ?? ""
      let plain = !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
      let step = plain ? ".\(name)" : "[\(String(reflecting: name))]"
      return path.isEmpty ? String(step.drop { $0 == "." }) : path + step
    case .array(let path, let index)?:
      return "\(path)[\(index)]"
    case nil:
      return ""
    }
  }

  while index < bytes.count {
    let byte = bytes[index]
    switch byte {
    case UInt8(ascii: "\n"):
      line += 1
      index += 1
    case UInt8(ascii: "{"):
      stack.append(.object(path: childPath(), keys: [], key: nil, expectingKey: true))
      index += 1
    case UInt8(ascii: "["):
      stack.append(.array(path: childPath(), index: 0))
      index += 1
    case UInt8(ascii: "}"), UInt8(ascii: "]"):
      guard !stack.isEmpty else { return nil }
      stack.removeLast()
      index += 1
    case UInt8(ascii: ","):
      switch stack.last {
      case .object(let path, let keys, _, _)?:
        stack[stack.count - 1] = .object(path: path, keys: keys, key: nil, expectingKey: true)
      case .array(let path, let position)?:
        stack[stack.count - 1] = .array(path: path, index: position + 1)
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
      if case .object(let path, var keys, _, true)? = stack.last {
        let literal = bytes[index...end]
        let key: String
        if hasEscape {
          guard let decoded = try? JSONDecoder().decode(String.self, from: Data(literal)) else { return nil }
          key = decoded
        } else {
          key = String(decoding: literal.dropFirst().dropLast(), as: UTF8.self)
        }
        guard keys.insert(key).inserted else { return (path.isEmpty ? "the top level" : path, key, line) }
        stack[stack.count - 1] = .object(path: path, keys: keys, key: key, expectingKey: false)
      }
      index = end + 1
    default:
      index += 1
    }
  }
  return nil
}
