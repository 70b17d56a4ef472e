@testable import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

@Suite struct DefaultsKeyTests {
  @Test func keysWithTheSameNameAndTypeAreEqualAndHashTheSame() {
    #expect(DefaultsKey<Profile>("profile") == .profile)
    #expect(Set([DefaultsKey<Profile>("profile"), .profile]).count == 1)
    #expect(DefaultsKey<Profile>("user") != .profile)
    #expect(DefaultsKey<Profile>.profile.name == "profile")
  }

  @Test func plainTypesAreStoredAsThemselves() throws {
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    #expect(try DefaultsKey<String>.theme.encode("dark") == .string("dark"))
    #expect(try DefaultsKey<Int>.launchCount.encode(3) == .int(3))
    #expect(try DefaultsKey<Bool>.onboarded.encode(true) == .bool(true))
    #expect(try DefaultsKey<Double>.volume.encode(0.5) == .double(0.5))
    #expect(try DefaultsKey<Data>.avatar.encode(Data([1])) == .data(Data([1])))
    #expect(try DefaultsKey<Date>.lastSync.encode(date) == .date(date))
  }

  @Test func otherTypesAreStoredAsSortedJSON() throws {
    #expect(
      try DefaultsKey<Profile>.profile.encode(Profile(name: "Blob", age: 42)) == json(#"{"age":42,"name":"Blob"}"#)
    )
    #expect(try DefaultsKey<Theme>.appearance.encode(.dark) == json(#""dark""#))
    #expect(try DefaultsKey<Float>("f").encode(1.5) == json("1.5"))
    #expect(try DefaultsKey<Int64>("i").encode(7) == json("7"))
    #expect(try DefaultsKey<[String]>("tags").encode(["a"]) == json(#"["a"]"#))
    #expect(try DefaultsKey<[String: Int]>("counts").encode(["b": 2, "a": 1]) == json(#"{"a":1,"b":2}"#))
  }

  @Test func aKeyMadeInGenericCodeStoresLikeOneMadeInConcreteCode() throws {
    func stored<Value: Codable>(_ value: Value) throws -> DefaultsValue {
      try DefaultsKey<Value>("key").encode(value)
    }
    #expect(try stored("dark") == .string("dark"))
    #expect(try stored(3) == .int(3))
    #expect(try stored(Profile(name: "Blob", age: 42)) == json(#"{"age":42,"name":"Blob"}"#))
  }

  @Test func decodingReadsWhatEncodingWrote() throws {
    let profile = DefaultsKey<Profile>.profile
    #expect(try profile.decode(profile.encode(Profile(name: "Blob", age: 42))) == Profile(name: "Blob", age: 42))
    #expect(try DefaultsKey<Int>.launchCount.decode(.int(3)) == 3)
    #expect(try DefaultsKey<Theme>.appearance.decode(json(#""light""#)) == .light)
  }

  @Test func aDecodingFailureInsideAnArrayNamesTheElementAndTheField() throws {
    let key = DefaultsKey<[Profile]>("family")
    let error = try #require(throws: DefaultsCodingError.self) {
      try key.decode(json(#"[{"age":1,"name":"a"},{"name":"b"}]"#))
    }
    #expect(
      error.description
        == #"Could not decode Array<Profile> from defaults key "family": found the data "#
        + #"[{"age":1,"name":"a"},{"name":"b"}], "#
        + #"which does not decode as Array<Profile>: no value for "[1].age"; expected Array<Profile> as JSON data."#
    )
  }

  @Test func longValuesAreCutShortInTheMessage() throws {
    let long = String(repeating: "a", count: 100)
    let stringError = try #require(throws: DefaultsCodingError.self) {
      try DefaultsKey<Int>.launchCount.decode(.string(long))
    }
    #expect(
      stringError.description
        == #"Could not decode Int from defaults key "launchCount": found the string "\#(long.prefix(60))…"; "#
        + "expected an int."
    )
    let dataError = try #require(throws: DefaultsCodingError.self) {
      try DefaultsKey<Int>.launchCount.decode(.data(Data(long.utf8)))
    }
    #expect(
      dataError.description
        == #"Could not decode Int from defaults key "launchCount": found the data \#(long.prefix(60))… (100 bytes); "#
        + "expected an int."
    )
  }

  @Test func aConformanceThatRejectsAValueThrowsFromEncodeNamingTheReason() throws {
    let error = try #require(throws: DefaultsCodingError.self) {
      try DefaultsKey<Quantity>("quantity").encode(Quantity(amount: -1))
    }
    #expect(
      error.description == #"Could not encode Quantity for defaults key "quantity": a quantity cannot be negative."#
    )
    #expect(error.found == nil)
    guard case .encodingFailed(let underlying) = error.problem else {
      Issue.record("expected .encodingFailed, got \(error.problem)")
      return
    }
    #expect(underlying is EncodingError)
  }

  @Test func aConformanceThatEncodesNothingThrowsFromEncode() throws {
    let error = try #require(throws: DefaultsCodingError.self) {
      try DefaultsKey<Unencodable>("broken").encode(Unencodable())
    }
    #expect(
      error.description
        == #"Could not encode Unencodable for defaults key "broken": top-level Unencodable did not encode any values."#
    )
  }

  @Test func writingAValueThatCannotBeEncodedFailsTheTestAtTheWriteAndStoresNothing() {
    let defaults = InMemoryDefaults(["quantity": 3])
    let line = #line + 2
    let issues = withCapturedIssues {
      defaults.set(Quantity(amount: -1), for: DefaultsKey<Quantity>("quantity"))
    }.issues
    expectReadIssues(
      issues,
      [
        CapturedIssue(
          """
          DefaultsStore.set(_:for:) stored nothing: Could not encode Quantity for defaults key "quantity": a quantity cannot be \
          negative. A sound Encodable conformance never fails; to handle this error, encode with \
          DefaultsKey.encode(_:), which throws.
          """,
          line: line
        )
      ]
    )
    #expect(defaults.values == ["quantity": 3])
  }

  // Exit tests exist on macOS, Linux and Windows only.
  #if os(macOS) || os(Linux) || os(Windows)
  @Test func inAnAppAnUnencodableValueStopsTheProgramNamingTheKeyTypeAndError() async {
    // The child of an exit test runs no test, so it is given the app's behaviour explicitly.
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = DefaultsKey<Quantity>("quantity").encodeOrReport(
        Quantity(amount: -1),
        in: "DefaultsStore.set(_:for:)",
        reporter: nil
      )
    }
    let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      output.contains(
        #"DefaultsStore.set(_:for:) stored nothing: Could not encode Quantity for defaults key "quantity""#
      )
    )
  }
  #endif

  private func json(_ text: String) -> DefaultsValue {
    .data(Data(text.utf8))
  }
}
