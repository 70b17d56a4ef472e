import Foundation

/// How `Codable` values are written to and read from defaults as JSON: the one configuration
/// ``DefaultsKey`` encodes and decodes with.
enum DefaultsJSON {
  /// Non-finite numbers are written as these strings instead of failing, so encoding a value with
  /// a synthesized `Encodable` conformance cannot fail because of the numbers it holds.
  private static let infinity = "+Infinity"
  private static let negativeInfinity = "-Infinity"
  private static let notANumber = "NaN"

  /// `value` as JSON with sorted keys: equal values give equal bytes.
  static func encode<T: Encodable>(_ value: T) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: infinity,
      negativeInfinity: negativeInfinity,
      nan: notANumber
    )
    return try encoder.encode(value)
  }

  /// The `T` that `json` holds.
  static func decode<T: Decodable>(_ type: T.Type, from json: Data) throws -> T {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: infinity,
      negativeInfinity: negativeInfinity,
      nan: notANumber
    )
    return try decoder.decode(T.self, from: json)
  }

  /// A short clause saying what went wrong, for an error message: `no value for "age"`,
  /// `at "age": expected to decode Int but found a string instead`.
  static func describe(_ error: any Error) -> String {
    switch error {
    case let error as DecodingError:
      switch error {
      case .keyNotFound(let key, let context):
        return "no value for \(path(context.codingPath + [key]))"
      case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
        return located(context)
      @unknown default:
        return "\(error)"
      }
    case let error as EncodingError:
      switch error {
      case .invalidValue(_, let context):
        return located(context)
      @unknown default:
        return "\(error)"
      }
    default:
      return "\(error)"
    }
  }

  private static func located(_ context: DecodingError.Context) -> String {
    located(context.debugDescription, at: context.codingPath)
  }

  private static func located(_ context: EncodingError.Context) -> String {
    located(context.debugDescription, at: context.codingPath)
  }

  /// `at "address.city": <sentence>`, or only the sentence at the top level; the sentence starts in
  /// lower case and loses its final period, to sit inside a longer message.
  private static func located(_ sentence: String, at codingPath: [any CodingKey]) -> String {
    var clause = sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
    if let first = clause.first, first.isUppercase, clause.dropFirst().first?.isUppercase != true {
      clause = first.lowercased() + clause.dropFirst()
    }
    return codingPath.isEmpty ? clause : "at \(path(codingPath)): \(clause)"
  }

  /// `"items[0].name"`: the keys of a coding path, quoted as one.
  private static func path(_ codingPath: [any CodingKey]) -> String {
    var path = ""
    for key in codingPath {
      if let index = key.intValue, key.stringValue == "Index \(index)" {  // an element of an array
        path += "[\(index)]"
      } else {
        path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return "\"\(path)\""
  }
}

extension DefaultsJSON {
  /// The `T` decoded from `stored`: JSON data, or JSON text stored as a string.
  ///
  /// - Throws: ``DefaultsCodingError`` naming `key`, `T`, and what `stored` holds.
  static func value<T: Decodable>(
    _ type: T.Type,
    from stored: DefaultsValue,
    key: String
  ) throws -> T {
    let json: Data
    switch stored {
    case .data(let data): json = data
    case .string(let string): json = Data(string.utf8)
    default:
      throw DefaultsCodingError(key: key, type: T.self, problem: .notJSON(found: stored.typeName), found: stored)
    }
    do {
      return try decode(T.self, from: json)
    } catch {
      throw DefaultsCodingError(key: key, type: T.self, problem: .decodingFailed(error), found: stored)
    }
  }
}
