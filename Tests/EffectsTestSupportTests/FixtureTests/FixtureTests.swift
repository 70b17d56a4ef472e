import EffectsTestSupport
import Foundation
import Testing

private struct User: Codable, Equatable {
  var id: Int
  var name: String
  var friends: [Friend]?

  struct Friend: Codable, Equatable {
    var name: String
  }
}

@Suite struct FixtureTests {
  // MARK: JSON

  @Test func jsonSortsKeysSoTheTextIsStable() throws {
    let json = try Fixture.json(["b": 2, "a": 1, "c": 3])
    #expect(json == #"{"a":1,"b":2,"c":3}"#)
    #expect(try Fixture.json(["c": 3, "a": 1, "b": 2]) == json)
  }

  @Test func jsonWritesNestedValuesAndSlashesPlainly() throws {
    let user = User(id: 1, name: "Blob/Jr", friends: [.init(name: "Blobby")])
    #expect(try Fixture.json(user) == #"{"friends":[{"name":"Blobby"}],"id":1,"name":"Blob/Jr"}"#)
  }

  @Test func jsonReportsAValueItCannotEncode() {
    #expect {
      try Fixture.json(["ratio": Double.nan])
    } throws: { error in
      let error = try #require(error as? FixtureError)
      guard case .notEncodable(let type, let reason) = error else { return false }
      return type == "Dictionary<String, Double>" && reason.contains("ratio")
        && error.description.hasPrefix("Fixture.json(_:) cannot encode the Dictionary<String, Double> as JSON: ")
    }
  }

  @Test func decodeReadsTheJSONBack() throws {
    let user = User(id: 1, name: "Blob", friends: [.init(name: "Blobby")])
    #expect(try Fixture.decode(User.self, from: Fixture.json(user)) == user)
    #expect(try Fixture.decode(User.self, from: #"{"id": 2, "name": "Blob Jr"}"#) == User(id: 2, name: "Blob Jr"))
  }

  @Test func decodeSaysWhichKeyIsMissingAndWhere() {
    #expect(
      throws: FixtureError.notDecodable(type: "User", reason: #"key "name" not found at .friends[0]"#)
    ) {
      try Fixture.decode(User.self, from: #"{"id": 1, "name": "Blob", "friends": [{"nickname": "B"}]}"#)
    }
    #expect(
      FixtureError.notDecodable(type: "User", reason: #"key "name" not found at .friends[0]"#).description
        == #"Fixture.decode(_:from:) cannot decode a User from the JSON: key "name" not found at .friends[0]."#
    )
  }

  @Test func decodeSaysWhichValueHasTheWrongType() {
    #expect {
      try Fixture.decode(User.self, from: #"{"id": "one", "name": "Blob"}"#)
    } throws: { error in
      guard case .notDecodable(let type, let reason)? = error as? FixtureError else { return false }
      return type == "User" && reason.hasPrefix("expected a Int at .id")
    }
  }

  // MARK: Resources of a test bundle

  @Test func loadsAResourceByItsPathInTheBundle() throws {
    #expect(try Fixture.string("Fixtures/number.txt", in: .module) == "123")
    #expect(try Fixture.data("Fixtures/number.txt", in: .module) == Data("123".utf8))
    #expect(try Fixture.path("Fixtures/number.txt", in: .module).hasSuffix("/Fixtures/number.txt"))
  }

  @Test func loadsAResourceByItsFileNameWhenOnlyOneHasIt() throws {
    #expect(try Fixture.url("number.txt", in: .module) == Fixture.url("Fixtures/number.txt", in: .module))
    let user = try Fixture.decode(User.self, from: Fixture.string("user.json", in: .module))
    #expect(user == User(id: 1, name: "Blob"))
  }

  @Test func aMissingResourceListsWhatTheBundleHoldsAndTheNearestName() throws {
    #expect {
      try Fixture.string("nubmer.txt", in: .module)
    } throws: { error in
      guard case .resourceNotFound(let name, let directory, let available, let nearest)? = error as? FixtureError
      else { return false }
      return name == "nubmer.txt"
        && available == [
          "Fixtures/a/config.json", "Fixtures/b/config.json", "Fixtures/number.txt", "Fixtures/user.json",
        ]
        && nearest == "Fixtures/number.txt"
        && "\(error)" == """
          Fixture found no resource named "nubmer.txt" in the bundle at \(directory), which holds 4 resources:
            [0] Fixtures/a/config.json
            [1] Fixtures/b/config.json
            [2] Fixtures/number.txt
            [3] Fixtures/user.json
          Pass one of these names; the nearest is "Fixtures/number.txt".
          """
    }
  }

  @Test func aFileNameSeveralResourcesShareIsAmbiguous() throws {
    #expect(
      throws: FixtureError.ambiguousResource(
        name: "config.json",
        matches: ["Fixtures/a/config.json", "Fixtures/b/config.json"]
      )
    ) {
      try Fixture.url("config.json", in: .module)
    }
    #expect(try Fixture.string("Fixtures/b/config.json", in: .module) == #"{"env": "b"}"# + "\n")
  }

  @Test func aBundleWithoutResourcesSaysHowToDeclareThem() {
    let error = FixtureError.resourceNotFound(name: "number.txt", directory: "/tests", available: [], nearest: nil)
    #expect(
      error.description == """
        Fixture found no resource named "number.txt": the bundle at /tests holds no resources. Declare them on the \
        test target in Package.swift (for example resources: [.copy("Fixtures")]) and pass that target's \
        Bundle.module.
        """
    )
  }

  @Test func anAmbiguousNameListsTheResourcesToChooseFrom() {
    let error = FixtureError.ambiguousResource(name: "config.json", matches: ["a/config.json", "b/config.json"])
    #expect(
      error.description == """
        Fixture found 2 resources named "config.json":
          [0] a/config.json
          [1] b/config.json
        Pass the path of the one you mean.
        """
    )
  }
}
