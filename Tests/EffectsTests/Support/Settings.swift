import Effects
import Foundation

/// Settings an app would store through typed keys, declared the way the README shows.
struct Profile: Codable, Equatable, Sendable {
  var name: String
  var age: Int
}

/// An enum with raw values: a `Codable` type, so stored as JSON (`"dark"` as data).
enum Theme: String, Codable, Sendable {
  case light
  case dark
}

/// A number that may be non-finite.
struct Reading: Codable, Sendable {
  var value: Double
}

/// Counts by name: a dictionary whose order in memory changes between runs.
struct Tally: Codable, Equatable, Sendable {
  var counts: [String: Int]
}

/// A type whose `Encodable` conformance rejects some values on purpose.
struct Quantity: Codable, Sendable {
  var amount: Int

  func encode(to encoder: any Encoder) throws {
    guard amount >= 0 else {
      throw EncodingError.invalidValue(
        amount,
        EncodingError.Context(codingPath: [], debugDescription: "A quantity cannot be negative.")
      )
    }
    var container = encoder.singleValueContainer()
    try container.encode(amount)
  }
}

/// A type whose `Encodable` conformance is broken: it encodes nothing.
struct Unencodable: Codable, Sendable {
  func encode(to encoder: any Encoder) throws {}
}

extension DefaultsKey<Profile> {
  static var profile: Self { Self("profile") }
}

extension DefaultsKey<Theme> {
  static var appearance: Self { Self("appearance") }
}

extension DefaultsKey<String> {
  static var theme: Self { Self("theme") }
}

extension DefaultsKey<Int> {
  static var launchCount: Self { Self("launchCount") }
}

extension DefaultsKey<Bool> {
  static var onboarded: Self { Self("onboarded") }
}

extension DefaultsKey<Double> {
  static var volume: Self { Self("volume") }
}

extension DefaultsKey<Data> {
  static var avatar: Self { Self("avatar") }
}

extension DefaultsKey<Date> {
  static var lastSync: Self { Self("lastSync") }
}
